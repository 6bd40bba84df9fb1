/**
 * {@code polylink mpirun}: a job of MPI ranks on this host. {@link io.polylink.launcher.mpirun.Mpirun}
 * runs on the launcher's main thread, starts one JVM per rank ({@code RankProcess}) with the
 * launch variables the {@code mpi} bundle reads, and waits for them; a rank's output goes straight
 * to the launcher's, or through a {@code LinePump} thread per stream when each line is prefixed
 * with its rank. A shutdown hook (Ctrl-C) stops the ranks; {@code JobFiles} removes whatever the
 * job wrote, however it ended.
 */
package io.polylink.launcher.mpirun;
