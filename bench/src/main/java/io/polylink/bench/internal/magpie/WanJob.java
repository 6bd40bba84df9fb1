package io.polylink.bench.internal.magpie;

import io.polylink.testkit.EmulatedWan;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * One job of MPI ranks on the emulated clusters, each rank a JVM started in its cluster's
 * namespace with the launch variables {@code polylink mpirun} sets: its cluster is its host and its
 * site, tcp listens on the cluster's address, the job meets in a directory every namespace sees.
 * Rank 0's output lines are kept; every rank's error output goes to the bench's. Closing it kills
 * what is left of the job.
 */
final class WanJob implements AutoCloseable {

    private final List<Process> ranks = new ArrayList<>();
    private final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    private Thread reader;

    /**
     * @param placement the cluster of each rank
     * @param models the link models the ranks get, or {@code null}
     * @param main the rank program, {@link MagpieRank} or the P-LogP tool's
     */
    static WanJob start(EmulatedWan wan, int[] placement, Path work, String models, Class<?> main, String... args)
            throws IOException {
        return start(wan, placement, work, models, "", main, args);
    }

    /** @param transforms the transforms the ranks start, comma-separated, such as {@code lz4} */
    static WanJob start(EmulatedWan wan, int[] placement, Path work, String models, String transforms, Class<?> main,
                        String... args) throws IOException {
        WanJob job = new WanJob();
        String id = "magpie-" + UUID.randomUUID().toString().substring(0, 8);
        Path dir = Files.createDirectories(work.resolve(id));
        try {
            for (int rank = 0; rank < placement.length; rank++) {
                int cluster = placement[rank];
                Map<String, String> env = new HashMap<>();
                env.put("POLYLINK_MPI_JOB", id);
                env.put("POLYLINK_MPI_RANK", Integer.toString(rank));
                env.put("POLYLINK_MPI_SIZE", Integer.toString(placement.length));
                env.put("POLYLINK_MPI_REGISTRY", dir.resolve("registry").toString());
                env.put("POLYLINK_MPI_SHM_DIRECTORY", dir.resolve("shm").toString());
                env.put("POLYLINK_MPI_STORAGE", dir.resolve("rank-" + rank).toString());
                env.put("POLYLINK_MPI_TCP_ADDRESS", wan.address(cluster));
                env.put("POLYLINK_MPI_HOST", "cluster-" + cluster);
                env.put("POLYLINK_MPI_SITE", "cluster-" + cluster);
                env.put("POLYLINK_MPI_PLOGP_MODELS", models == null ? "" : models);
                if (!transforms.isEmpty()) {
                    env.put("POLYLINK_MPI_TRANSFORMS", transforms);
                }
                List<String> command = java(wan, cluster, main);
                command.addAll(List.of(args));
                ProcessBuilder b = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
                b.environment().putAll(env);
                Process p = b.start();
                p.getOutputStream().close();
                job.ranks.add(p);
                if (rank == 0) {
                    job.reader = new Thread(() -> job.read(p), "polylink-bench-magpie-read");
                    job.reader.setDaemon(true);
                    job.reader.start();
                } else {
                    p.getInputStream().close();
                }
            }
            return job;
        } catch (IOException | RuntimeException e) {
            job.close();
            throw e;
        }
    }

    /** @return the command that runs {@code main} of this bench's class path in {@code cluster}'s namespace */
    static List<String> java(EmulatedWan wan, int cluster, Class<?> main) {
        return new ArrayList<>(List.of("ip", "netns", "exec", wan.cluster(cluster),
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g", "-cp",
            System.getProperty("java.class.path"), main.getName()));
    }

    private void read(Process p) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lines.add(line);
            }
        } catch (IOException ended) {
            // the rank ended; its lines are in
        }
    }

    /**
     * @return rank 0's output lines, once every rank exited with 0
     * @throws IOException naming a rank that failed, or the limit
     */
    List<String> await(Duration limit) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        for (int r = 0; r < ranks.size(); r++) {
            Process p = ranks.get(r);
            long left = deadline - System.nanoTime();
            if (left <= 0 || !p.waitFor(left, TimeUnit.NANOSECONDS)) {
                throw new IOException("rank " + r + " did not end within " + limit.toSeconds() + " s");
            }
            if (p.exitValue() != 0) {
                throw new IOException("rank " + r + " exited with " + p.exitValue());
            }
        }
        reader.join(TimeUnit.SECONDS.toMillis(10)); // rank 0's last lines, read once it ended
        return List.copyOf(lines);
    }

    @Override
    public void close() {
        for (Process p : ranks) {
            p.destroyForcibly();
        }
        for (Process p : ranks) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
