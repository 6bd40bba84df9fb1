/**
 * The collectives' programs: each rank knows every rank's data (made from the rank and a number
 * that changes from call to call), so it checks what a collective gives it against the same
 * computation done sequentially. {@link io.polylink.mpi.programs.coll.Matrix} runs every
 * collective, in every form, on {@code COMM_WORLD} and on duplicates whose info makes each
 * collective take each of its algorithms.
 */
package io.polylink.mpi.programs.coll;
