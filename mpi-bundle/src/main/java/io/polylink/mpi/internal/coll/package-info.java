/**
 * Collective operations as schedules driven by arrivals: each step's sends and receives are
 * posted when the step before completed, by whichever thread completed it (usually a method's I/O
 * thread), so a collective progresses while the application computes. Traffic goes on the
 * communicator's collective context id, never matching the application's receives.
 *
 * <p>Each collective's class ({@link io.polylink.mpi.internal.coll.Broadcast},
 * {@link io.polylink.mpi.internal.coll.AllReduce}, ...) checks its arguments, chooses its algorithm
 * through {@link io.polylink.mpi.internal.coll.Collectives} (by size, ranks, their
 * {@link io.polylink.mpi.internal.coll.Placement} on hosts and sites, and the communicator's
 * {@link io.polylink.mpi.internal.coll.Tuning}) and plans its steps along
 * {@link io.polylink.mpi.internal.coll.Trees}; across sites, MagPIe's
 * {@link io.polylink.mpi.internal.coll.SiteTrees}, shaped by the link models'
 * {@link io.polylink.mpi.internal.coll.WideAreaCost}. Small blocking calls of ranks on one host
 * meet in a {@link io.polylink.mpi.internal.coll.HostArea} instead, memory the ranks share, with
 * no message.
 */
package io.polylink.mpi.internal.coll;
