package io.polylink.mpi.job;

import io.polylink.testkit.Await;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Runs an MPI program as a job of ranks in this JVM: each rank a thread with its own
 * {@link RankClassLoader} (so its own {@code mpi} statics) and its own Polylink context, joined
 * over real tcp sockets or shm segments, found through a real naming directory. A rank's
 * {@code MPI.Init} reads the launch variables a launcher would set, as it does in a process.
 *
 * <p>Closing the job closes what its ranks left open and removes its directory; it fails if
 * Polylink threads or shm segments outlive it.
 */
public final class Job implements AutoCloseable {

    /** The methods each rank's context has. */
    public enum Methods {
        TCP("tcp"), SHM("shm"), SHM_AND_TCP("shm,tcp");

        final String names;

        Methods(String names) {
            this.names = names;
        }
    }

    /** The variable {@code TestRankHost} reads the methods from. */
    public static final String METHODS = "POLYLINK_TEST_METHODS";
    /** The variable {@code TestRankHost} reads the shm segment directory from. */
    public static final String SHM_DIRECTORY = "POLYLINK_TEST_SHM_DIRECTORY";

    /** How long ranks may take; {@code -Dpolylink.mpi.jobSeconds} changes it. */
    private static final Duration DEFAULT_LIMIT = Duration.ofSeconds(Long.getLong("polylink.mpi.jobSeconds", 120));

    private final int size;
    private final Methods methods;
    private final Path directory;
    private final Map<String, String> extra = new HashMap<>();
    private final Map<Integer, Map<String, String>> perRank = new HashMap<>();
    private int[] started;
    private Duration limit = DEFAULT_LIMIT;
    private Path programs;
    private Alongside alongside;

    /** What a test does beside a running job, as a peer outside it would. */
    @FunctionalInterface
    public interface Alongside {
        /**
         * @param signals the job's signals, to meet its ranks
         * @param registry the directory where the ranks published their startpoints
         */
        void run(JobSignals signals, Path registry) throws Exception;
    }

    /** Signals of one job, for a thread outside it. */
    public record JobSignals(String job) {

        /** Raises {@code name} for the job's ranks. */
        public void raise(String name) {
            Signals.raise(job, name);
        }

        /** Waits until a rank raised {@code name}. */
        public void await(String name, Duration limit) throws InterruptedException {
            Signals.await(job, name, limit);
        }

        /** @return the name rank {@code rank} published its startpoint under */
        public String name(int rank) {
            return "mpi." + job + "." + rank;
        }
    }

    private Job(int size, Methods methods) throws IOException {
        this.size = size;
        this.methods = methods;
        this.directory = Files.createTempDirectory("polylink-mpi-job");
        this.started = java.util.stream.IntStream.range(0, size).toArray();
    }

    /** @return a job of {@code size} ranks whose contexts have {@code methods} */
    public static Job of(int size, Methods methods) throws IOException {
        return new Job(size, methods);
    }

    /** Sets a launch variable for every rank. @return this */
    public Job env(String name, String value) {
        extra.put(name, value);
        return this;
    }

    /** Sets a launch variable for one rank, over what {@link #env(String, String)} sets. @return this */
    public Job env(int rank, String name, String value) {
        perRank.computeIfAbsent(rank, r -> new HashMap<>()).put(name, value);
        return this;
    }

    /** Starts only these ranks of the job, as if the others never came up. @return this */
    public Job only(int... ranks) {
        started = ranks.clone();
        return this;
    }

    /** Loads programs from this directory of compiled classes too. @return this */
    public Job programs(Path classes) {
        programs = classes;
        return this;
    }

    /** Runs {@code action} on a thread of its own while the job runs; the run fails if it throws. @return this */
    public Job alongside(Alongside action) {
        alongside = action;
        return this;
    }

    /** How long the ranks may take. @return this */
    public Job limit(Duration d) {
        limit = d;
        return this;
    }

    /** @return the variables a launcher sets for {@code rank} of a job with this id */
    private Map<String, String> environment(String job, int rank) {
        Map<String, String> env = new HashMap<>();
        env.put("POLYLINK_MPI_JOB", job);
        env.put("POLYLINK_MPI_RANK", Integer.toString(rank));
        env.put("POLYLINK_MPI_SIZE", Integer.toString(size));
        env.put("POLYLINK_MPI_REGISTRY", directory.resolve("registry").toString());
        env.put(METHODS, methods.names);
        env.put(SHM_DIRECTORY, directory.resolve("shm").toString());
        env.put("POLYLINK_MPI_SHM_DIRECTORY", directory.resolve("shm").toString());
        env.putAll(extra);
        env.putAll(perRank.getOrDefault(rank, Map.of()));
        return env;
    }

    /**
     * Runs {@code program}'s {@code main(String[])} at every rank and waits until all ended.
     *
     * @return how each rank ended
     */
    public Result run(Class<?> program, String... args) throws IOException, InterruptedException {
        return run(program.getName(), args);
    }

    /**
     * Runs the {@code main(String[])} of the class named {@code program} at every rank and waits
     * until all ended.
     *
     * @return how each rank ended
     */
    public Result run(String program, String... args) throws IOException, InterruptedException {
        Files.createDirectories(directory.resolve("registry"));
        Files.createDirectories(directory.resolve("shm"));
        String job = "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        PrintStream out = System.out;
        PrintStream err = System.err;
        OutputRouter outRouter = new OutputRouter(out, size);
        OutputRouter errRouter = new OutputRouter(err, size);
        List<RankClassLoader> loaders = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        Throwable[] failures = new Throwable[size];
        System.setOut(new PrintStream(outRouter, true, java.nio.charset.StandardCharsets.UTF_8));
        System.setErr(new PrintStream(errRouter, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            for (int rank : started) {
                RankClassLoader loader = new RankClassLoader(Job.class.getClassLoader(), rank, environment(job, rank),
                    programs);
                loaders.add(loader);
                Thread t = new Thread(() -> failures[loader.rank()] = runMain(loader, program, args), "mpi-rank-" + rank);
                t.setContextClassLoader(loader);
                t.setDaemon(true);
                threads.add(t);
            }
            threads.forEach(Thread::start);
            Throwable[] besideFailed = new Throwable[1];
            Thread beside = null;
            if (alongside != null) {
                beside = new Thread(() -> {
                    try {
                        alongside.run(new JobSignals(job), directory.resolve("registry"));
                    } catch (Throwable e) {
                        besideFailed[0] = e;
                    }
                }, "job-alongside");
                beside.setDaemon(true);
                beside.start();
            }
            long deadline = System.nanoTime() + limit.toNanos();
            for (Thread t : threads) {
                t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            }
            List<Integer> stuck = new ArrayList<>();
            Map<Integer, String> where = new HashMap<>();
            for (int i = 0; i < threads.size(); i++) {
                if (threads.get(i).isAlive()) {
                    stuck.add(loaders.get(i).rank());
                    where.put(loaders.get(i).rank(), stackOf(threads.get(i)));
                }
            }
            for (int i = 0; i < threads.size(); i++) {
                if (threads.get(i).isAlive()) {
                    rescue(loaders.get(i));
                }
            }
            for (Thread t : threads) {
                t.join(10_000);
            }
            if (beside != null) {
                beside.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                if (beside.isAlive() || besideFailed[0] != null) {
                    throw new AssertionError("what ran beside the job " + (beside.isAlive() ? "did not finish" : "failed"),
                        besideFailed[0]);
                }
            }
            for (int i = 0; i < threads.size(); i++) {
                int rank = loaders.get(i).rank();
                if (stuck.contains(rank)) {
                    failures[rank] = new AssertionError("rank " + rank + " did not finish within " + limit
                        + (threads.get(i).isAlive() ? " and is still running" : "; it was aborted") + "; it was at\n"
                        + where.get(rank), failures[rank]);
                }
            }
        } finally {
            Signals.forget(job);
            System.setOut(out);
            System.setErr(err);
            for (RankClassLoader l : loaders) {
                l.closeLeftovers();
            }
        }
        List<RankResult> results = new ArrayList<>();
        for (RankClassLoader l : loaders) {
            int r = l.rank();
            results.add(new RankResult(r, failures[r], l.exitStatus(), outRouter.of(r), errRouter.of(r)));
        }
        return new Result(results);
    }

    private static String stackOf(Thread t) {
        StringBuilder s = new StringBuilder();
        for (StackTraceElement e : t.getStackTrace()) {
            s.append("    at ").append(e).append('\n');
        }
        return s.toString();
    }

    private static Throwable runMain(RankClassLoader loader, String program, String[] args) {
        try {
            Method main = loader.loadClass(program).getMethod("main", String[].class);
            main.invoke(null, (Object) args);
            return null;
        } catch (InvocationTargetException e) {
            return e.getCause();
        } catch (ReflectiveOperationException | RuntimeException | Error e) {
            return e;
        }
    }

    /** Aborts a rank that is stuck, through its own {@code MPI.COMM_WORLD}, so its threads end. */
    private static void rescue(RankClassLoader loader) {
        try {
            Class<?> mpi = loader.loadClass("mpi.MPI");
            Object world = mpi.getField("COMM_WORLD").get(null);
            world.getClass().getMethod("abort", int.class).invoke(world, 99);
        } catch (ReflectiveOperationException e) {
            // MPI was not running there, or the abort failed: the rank's own timeout ends it
        }
    }

    @Override
    public void close() throws IOException {
        Await.until(() -> Await.threads("polylink-").isEmpty(), Duration.ofSeconds(20),
            () -> "threads left after the job: " + Await.threads("polylink-"));
        Path shm = directory.resolve("shm");
        List<String> left = Files.isDirectory(shm) ? list(shm) : List.of();
        try (Stream<Path> all = Files.walk(directory)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
        if (!left.isEmpty()) {
            throw new AssertionError("shm files left after the job: " + left);
        }
    }

    private static List<String> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
