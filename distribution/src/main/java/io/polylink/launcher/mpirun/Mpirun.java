package io.polylink.launcher.mpirun;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * {@code polylink mpirun}: starts the ranks of an MPI program on this host, each in a JVM of its
 * own, waits for them, and answers with the first failing rank's exit code. Owns the job from
 * start to end: its processes (stopped on a failure after a grace, and on Ctrl-C at once) and its
 * files (removed however the job ends). See {@link MpirunOptions#HELP}.
 */
public final class Mpirun {

    /** How long the other ranks may take to end by themselves once one failed. */
    static final int GRACE_SECONDS = 10;
    /** How long the ranks' output may take to be written once they ended. */
    private static final long DRAIN_MILLIS = 10_000;

    private final MpirunOptions options;
    private final Path home;
    private final List<RankProcess> ranks = new ArrayList<>();
    private JobFiles files;
    private boolean finished;
    /** Set by Ctrl-C: the ranks' ends are then not failures to report. */
    private volatile boolean interrupted;

    private Mpirun(MpirunOptions options, Path home) {
        this.options = options;
        this.home = home;
    }

    /**
     * @param args the command line after {@code mpirun}
     * @param home the installation, whose {@code lib/mpi/} the ranks run with
     * @return the exit status: see {@link MpirunOptions#HELP}
     */
    public static int run(String[] args, Path home) throws InterruptedException {
        MpirunOptions options;
        String program;
        try {
            options = MpirunOptions.parse(args);
            if (options == null) {
                System.out.println(MpirunOptions.HELP);
                return 0;
            }
            program = options.jar() != null ? mainClassOf(options.jar()) : options.mainClass();
        } catch (IllegalArgumentException e) {
            System.err.println("polylink mpirun: " + e.getMessage() + " (polylink mpirun --help describes every option)");
            return 2;
        }
        Path lib = home.resolve("lib").resolve("mpi");
        if (!Files.isRegularFile(lib.resolve("polylink-mpi.jar"))) {
            System.err.println("polylink mpirun: " + lib.resolve("polylink-mpi.jar") + " is missing: the distribution "
                + "is incomplete; rebuild it");
            return 1;
        }
        return new Mpirun(options, home).launch(program, lib);
    }

    /** @return the Main-Class of {@code jar}'s manifest */
    private static String mainClassOf(Path jar) {
        try (JarFile j = new JarFile(jar.toFile())) {
            Manifest m = j.getManifest();
            String main = m == null ? null : m.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
            if (main == null || main.isBlank()) {
                throw new IllegalArgumentException("-jar " + jar + " names no Main-Class in its manifest; name the class "
                    + "instead: -cp " + jar + " CLASS");
            }
            return main.trim();
        } catch (IOException e) {
            throw new IllegalArgumentException("-jar " + jar + " cannot be read as a jar: " + e.getMessage());
        }
    }

    private int launch(String program, Path lib) throws InterruptedException {
        Thread interrupted = new Thread(this::interrupted, "polylink-mpirun-stop");
        Runtime.getRuntime().addShutdownHook(interrupted);
        try {
            synchronized (this) {
                files = JobFiles.create(options.tmpdir(), options.registry());
                List<String> command = command(program, lib);
                for (int r = 0; r < options.ranks(); r++) {
                    ranks.add(RankProcess.start(r, command, environment(r), options.output()
                        == MpirunOptions.Output.RANK_PREFIX));
                }
            }
            return supervise();
        } catch (IOException | UncheckedIOException e) {
            System.err.println("polylink mpirun: cannot start the job: " + e.getMessage());
            return 1;
        } finally {
            end();
            try {
                Runtime.getRuntime().removeShutdownHook(interrupted);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C came: the hook runs, or ran, end() itself
            }
        }
    }

    private List<String> command(String program, Path lib) {
        List<String> c = new ArrayList<>();
        c.add(ProcessHandle.current().info().command().orElse("java"));
        String javaOptions = System.getenv("POLYLINK_MPI_JAVA_OPTS");
        if (javaOptions != null && !javaOptions.isBlank()) {
            c.addAll(List.of(javaOptions.trim().split("\\s+")));
        }
        String user = options.jar() != null ? options.jar().toAbsolutePath().toString()
            : options.classPath() != null ? options.classPath()
            : System.getenv("CLASSPATH") != null && !System.getenv("CLASSPATH").isBlank() ? System.getenv("CLASSPATH")
            : ".";
        c.add("-cp");
        c.add(lib.toAbsolutePath() + File.separator + "*" + File.pathSeparator + user);
        c.add(program);
        c.addAll(options.args());
        return c;
    }

    /** @return the variables rank {@code rank} gets besides mpirun's own environment */
    private Map<String, String> environment(int rank) {
        Map<String, String> env = new HashMap<>();
        env.put("POLYLINK_MPI_JOB", files.job());
        env.put("POLYLINK_MPI_RANK", Integer.toString(rank));
        env.put("POLYLINK_MPI_SIZE", Integer.toString(options.ranks()));
        env.put("POLYLINK_MPI_REGISTRY", files.registry().toString());
        env.put("POLYLINK_MPI_STORAGE", files.storage(rank).toString());
        env.put("POLYLINK_MPI_SHM_DIRECTORY", files.shm().toString());
        env.put("POLYLINK_MPI_ABORT_FILE", files.abortRecord().toString());
        if (System.getenv("POLYLINK_MPI_TCP_ADDRESS") == null) {
            env.put("POLYLINK_MPI_TCP_ADDRESS", "127.0.0.1"); // every rank runs on this host
        }
        if (options.methods() != null) {
            env.put("POLYLINK_MPI_METHODS", options.methods());
        }
        if (options.transforms() != null) {
            env.put("POLYLINK_MPI_TRANSFORMS", options.transforms());
        }
        if (options.explain()) {
            env.put("POLYLINK_MPI_EXPLAIN", "true");
        }
        return env;
    }

    /** Waits for every rank; after the first failure, the others get the grace, then are stopped. */
    private int supervise() throws InterruptedException {
        BlockingQueue<RankProcess> ended = new LinkedBlockingQueue<>();
        for (RankProcess r : ranks) {
            r.process().onExit().thenRun(() -> ended.add(r));
        }
        List<RankProcess> failures = new ArrayList<>();
        long deadline = 0;
        boolean stopping = false;
        for (int left = ranks.size(); left > 0 && !interrupted; ) {
            RankProcess r = failures.isEmpty() || stopping ? ended.take()
                : ended.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (r == null) {
                System.err.println("polylink mpirun: " + left + " rank" + (left == 1 ? " is" : "s are")
                    + " still running " + GRACE_SECONDS + " s after rank " + failures.get(0).rank() + " failed; stopping "
                    + (left == 1 ? "it" : "them"));
                stopAll();
                stopping = true;
                continue;
            }
            left--;
            int status = r.process().exitValue();
            if (status != 0 && !stopping && !interrupted) {
                if (failures.isEmpty()) {
                    deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GRACE_SECONDS);
                    System.err.println("polylink mpirun: rank " + r.rank() + " (pid " + r.process().pid() + ") "
                        + describe(status) + (left == 0 ? "" : "; the other ranks have " + GRACE_SECONDS + " s to end"));
                }
                failures.add(r);
            }
        }
        for (RankProcess r : ranks) {
            r.drain(DRAIN_MILLIS);
        }
        return failures.isEmpty() || interrupted ? 0 : report(failures);
    }

    /**
     * Names the failure the job ended for, and answers its exit status. An abort ends every rank
     * with its code, and a rank may abort because another failed first: so the first rank that
     * failed with a status other than the abort's is the cause if there is one, else the rank
     * that aborted, else the first rank that failed.
     *
     * @param failures the ranks that failed by themselves, in the order they ended
     */
    private int report(List<RankProcess> failures) {
        Optional<String> abort = files.abort();
        // "RANK CODE REASON", written by the rank that aborted the job
        String[] record = abort.map(a -> a.split(" ", 3)).orElse(null);
        int abortStatus = record == null ? -1 : Integer.parseInt(record[1]) & 0xFF;
        Optional<RankProcess> cause = failures.stream().filter(r -> r.process().exitValue() != abortStatus).findFirst();
        if (cause.isEmpty() && record != null) {
            System.err.println("polylink mpirun: job " + files.job() + " failed: rank " + record[0]
                + " aborted it with code " + record[1] + (record.length > 2 ? ": " + record[2] : ""));
            return abortStatus;
        }
        RankProcess first = cause.orElse(failures.get(0));
        int status = first.process().exitValue();
        System.err.println("polylink mpirun: job " + files.job() + " failed: rank " + first.rank() + " " + describe(status));
        return status;
    }

    /** @return how a process that ended with {@code status} ended, in words */
    static String describe(int status) {
        if (status > 128 && status <= 128 + 64) {
            int signal = status - 128;
            String name = switch (signal) {
                case 1 -> " (HUP)";
                case 2 -> " (INT)";
                case 6 -> " (ABRT)";
                case 9 -> " (KILL)";
                case 11 -> " (SEGV)";
                case 15 -> " (TERM)";
                default -> "";
            };
            return "exited with code " + status + ", as a process killed by signal " + signal + name + " does";
        }
        return "exited with code " + status;
    }

    /** Ctrl-C (or SIGTERM) while the job runs: stops every rank and removes the job's files. */
    private void interrupted() {
        interrupted = true;
        int running;
        synchronized (this) {
            running = (int) ranks.stream().filter(r -> r.process().isAlive()).count();
        }
        if (running > 0) {
            System.err.println("polylink mpirun: interrupted; stopping " + running + " rank" + (running == 1 ? "" : "s"));
        }
        end();
    }

    /** Stops what still runs and removes the job's files, once. */
    private synchronized void end() {
        if (finished) {
            return;
        }
        finished = true;
        try {
            stopAll();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ranks.forEach(r -> r.process().destroyForcibly());
        }
        if (files != null) {
            try {
                files.close();
            } catch (UncheckedIOException e) {
                System.err.println("polylink mpirun: " + e.getCause().getMessage());
            }
        }
    }

    private synchronized void stopAll() throws InterruptedException {
        for (RankProcess r : ranks) {
            r.terminate();
        }
        for (RankProcess r : ranks) {
            r.awaitOrKill();
        }
    }
}
