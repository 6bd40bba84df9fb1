/**
 * The engine behind package {@code mpi}, and what its sub-packages share: {@link
 * io.polylink.mpi.internal.MpiError}, the one exception the engine throws for an MPI error, and
 * {@link io.polylink.mpi.internal.ErrorClass}, the error classes it names. The public classes
 * turn an {@code MpiError} into an {@code MPIException} through the communicator's error handler.
 *
 * <p>Sub-packages, by concern: {@code wire} (message headers), {@code datatype} (typemaps and the
 * copying of typed data between Java memory and messages), {@code request} (operations and
 * waiting for them), {@code p2p} (matching, eager and rendezvous protocols, the transport),
 * {@code comm} (communicators, groups, context ids, topologies, attributes), {@code coll}
 * (collective schedules) and {@code boot} (how a rank starts and ends).
 */
package io.polylink.mpi.internal;
