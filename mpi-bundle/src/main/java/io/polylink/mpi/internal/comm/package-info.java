/**
 * Communicators and what they are made of: groups of the job's ranks
 * ({@link io.polylink.mpi.internal.comm.Groups}), context ids agreed among the members
 * ({@link io.polylink.mpi.internal.comm.ContextIds}, {@link io.polylink.mpi.internal.comm.Agreement}),
 * Cartesian topologies, attributes and error modes.
 *
 * <p>A {@link io.polylink.mpi.internal.comm.Communicator} checks the arguments of a call, turns
 * its ranks into the job's and calls {@link io.polylink.mpi.internal.p2p.PointToPoint} with its
 * context id; its collective traffic (the agreements that create communicators, barriers) travels
 * on the odd context id above, so it never meets the application's messages. Called from
 * application threads; thread-safe.
 */
package io.polylink.mpi.internal.comm;
