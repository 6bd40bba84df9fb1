package io.polylink.bench.internal.mpi;

import io.polylink.bench.internal.pingpong.TempDirectory;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Runs {@link OsuRank} as a Polylink job of some ranks, each a JVM of its own started as
 * {@code polylink mpirun} starts ranks: the launch variables, and a runtime of its own from
 * {@code Polylink.start} (this jar carries package mpi, polylink-embedded and the framework).
 * {@code polylink:shm} starts both methods and selection takes shm; {@code polylink:tcp} starts
 * tcp alone, on 127.0.0.1.
 */
final class PolylinkRanks {

    static final String SHM = "polylink:shm";
    static final String TCP = "polylink:tcp";

    private PolylinkRanks() {}

    /**
     * @param buffers what the ranks send from and receive into (see {@link MpiOptions#buffers})
     * @return the results of one run of {@code impl} as {@code ranks} ranks with {@code args} (see {@code osu.c})
     */
    static List<MpiResult> run(String impl, int ranks, List<String> args, String buffers, Duration limit)
            throws IOException, InterruptedException {
        try (TempDirectory files = TempDirectory.create("polylink-bench-mpi-");
             Session session = new Session(impl)) {
            Path dir = files.path();
            String job = "bench-" + UUID.randomUUID().toString().substring(0, 8);
            for (int rank = 0; rank < ranks; rank++) {
                Map<String, String> env = new HashMap<>();
                env.put("POLYLINK_MPI_JOB", job);
                env.put("POLYLINK_MPI_RANK", Integer.toString(rank));
                env.put("POLYLINK_MPI_SIZE", Integer.toString(ranks));
                env.put("POLYLINK_MPI_REGISTRY", dir.resolve("registry").toString());
                env.put("POLYLINK_MPI_SHM_DIRECTORY", dir.resolve("shm").toString());
                env.put("POLYLINK_MPI_STORAGE", dir.resolve("rank-" + rank).toString());
                env.put("POLYLINK_MPI_TCP_ADDRESS", "127.0.0.1");
                env.put("POLYLINK_MPI_METHODS", impl.equals(TCP) ? "tcp" : "tcp,shm");
                List<String> command = new java.util.ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), OsuRank.class.getName()));
                command.addAll(args);
                command.add(buffers);
                session.start(command, env);
            }
            return session.await(limit);
        }
    }
}
