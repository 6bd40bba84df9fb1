/**
 * Collective operations as schedules driven by arrivals: each step's sends and receives are
 * posted when the step before completed, by whichever thread completed it (usually a method's I/O
 * thread), so a collective progresses while the application computes. Traffic goes on the
 * communicator's collective context id, never matching the application's receives.
 * {@link io.polylink.mpi.internal.coll.Barrier} (dissemination) is the one collective here.
 */
package io.polylink.mpi.internal.coll;
