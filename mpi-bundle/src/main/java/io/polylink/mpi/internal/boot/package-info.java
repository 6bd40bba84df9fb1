/**
 * How a rank starts and ends.
 *
 * <p>{@code MPI.Init} asks a {@link io.polylink.mpi.internal.boot.RankHost} for the launcher's
 * environment and a Polylink context, reads {@link io.polylink.mpi.internal.boot.LaunchSettings}
 * from the environment (mpirun's variables, or Slurm's), publishes this rank's startpoint in the
 * naming registry under the job's name and looks up every other rank's, or hears them from the
 * mpirun that started it on another host ({@link io.polylink.mpi.internal.boot.Wireup},
 * {@link io.polylink.mpi.internal.boot.MpirunLink}, whose thread {@code polylink-mpi-mpirun} also
 * beats, reports an abort and hears mpirun's stop); the result is a
 * {@link io.polylink.mpi.internal.boot.Session}. {@code MPI.Finalize} makes sure every rank
 * received all this one sent before the context closes
 * ({@link io.polylink.mpi.internal.boot.Farewells}). An abort reaches every rank and ends each
 * through its host.
 *
 * <p>Called from the application thread that initializes and finalizes; FIN, BYE and ABORT arrive
 * on the methods' I/O threads.
 */
package io.polylink.mpi.internal.boot;
