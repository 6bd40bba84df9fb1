/**
 * {@code polylink mpirun}: a job of MPI ranks on this host or on several.
 * {@link io.polylink.launcher.mpirun.Mpirun} runs on the launcher's main thread, starts one process
 * per rank ({@code RankProcess}: the rank's JVM, or the launcher that runs it on another host, as
 * {@code RemoteRanks} words it for the hosts {@code Hosts} names) with the launch variables the
 * {@code mpi} bundle reads, and waits for them; a rank's output goes straight to the launcher's, or
 * through a {@code LinePump} thread per stream when each line is prefixed with its rank. Ranks on
 * other hosts report to the {@code Rendezvous}, mpirun's tcp port, with threads of its own. A
 * shutdown hook (Ctrl-C) stops the ranks; {@code JobFiles} removes whatever the job wrote here,
 * and {@code RemoteRanks} what it wrote on the other hosts, however it ended.
 */
package io.polylink.launcher.mpirun;
