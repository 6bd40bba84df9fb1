/**
 * The Open MPI Java bindings' API, on Polylink: a rank is a Polylink context, its messages are
 * remote service requests, and they travel by shared memory on one host and tcp between hosts.
 *
 * <p>Programs written for Open MPI's {@code mpi} package compile against this one and run
 * unchanged: {@link mpi.MPI#Init}, {@link mpi.MPI#COMM_WORLD}, point-to-point messaging in every
 * mode, requests, derived datatypes, groups, communicators, Cartesian topologies, and every
 * collective (blocking, in place and non-blocking, with every predefined {@link mpi.Op} and user
 * operations) behave as the bindings do. Calls this version does not implement (one-sided
 * windows, files, dynamic processes, inter-communicators, graph topologies) throw
 * {@link mpi.MPIException} naming the call.
 */
@Export
@Version("0.1.0")
package mpi;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
