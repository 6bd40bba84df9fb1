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
import java.util.concurrent.CopyOnWriteArrayList;
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
    /** How long the ranks on other hosts may take to report to mpirun. */
    static final int WIREUP_SECONDS = 60;
    /** How long the ranks' output may take to be written once they ended. */
    private static final long DRAIN_MILLIS = 10_000;
    /** The variable that carries the installation's link models to every rank. */
    static final String MODELS = "POLYLINK_MPI_PLOGP_MODELS";
    /** The most characters of link models a rank's environment carries. */
    static final int MAX_MODELS = 100_000;

    private final MpirunOptions options;
    private final Path home;
    /** Appended while the job starts; read by the supervisor, the rendezvous and Ctrl-C. */
    private final List<RankProcess> ranks = new CopyOnWriteArrayList<>();
    private JobFiles files;
    /** Where ranks on other hosts report, or {@code null} when every rank runs on this host. */
    private Rendezvous rendezvous;
    private RemoteRanks remote;
    /** Ranks whose process ended, and ranks mpirun gave up on while they ran, for the supervisor. */
    private final BlockingQueue<Ended> events = new LinkedBlockingQueue<>();
    private boolean finished;
    /** The installation's link models, which every rank gets, or {@code null}. */
    private String models;
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
                models = models(options.models() != null ? options.models() : home.resolve("conf").resolve("plogp.models"));
                files = JobFiles.create(options.tmpdir(), options.registry());
                boolean prefix = options.output() == MpirunOptions.Output.RANK_PREFIX;
                if (options.across() == null) {
                    List<String> command = command(ProcessHandle.current().info().command().orElse("java"), program,
                        lib.toAbsolutePath().toString());
                    for (int r = 0; r < options.ranks(); r++) {
                        ranks.add(RankProcess.start(r, null, command, environment(r), prefix, null, null));
                    }
                } else {
                    startAcross(program, prefix);
                }
            }
            return supervise();
        } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
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

    /**
     * Starts each rank through the launcher on its host, and the rendezvous they report to. The
     * rendezvous is mpirun's naming registry unless the options name another.
     */
    private void startAcross(String program, boolean prefix) throws IOException {
        MpirunOptions.Across across = options.across();
        remote = new RemoteRanks(across, home);
        rendezvous = Rendezvous.open(across.rendezvous(), options.ranks(), this::silent);
        List<String> command = command("java", program, remote.prefix() + "/lib/mpi");
        String directory = across.workingDirectory() != null ? across.workingDirectory()
            : Path.of("").toAbsolutePath().toString();
        List<Hosts.Host> placed = across.hosts().place(options.ranks());
        for (int r = 0; r < options.ranks(); r++) {
            Hosts.Host host = placed.get(r);
            Map<String, String> env = environment(r);
            env.remove("POLYLINK_MPI_ABORT_FILE"); // a remote rank reports its abort to the rendezvous
            env.remove("POLYLINK_MPI_TCP_ADDRESS"); // every address of its host, for ranks on the others
            if (options.registry() == null && options.zookeeper() == null) {
                env.remove("POLYLINK_MPI_REGISTRY");
            }
            env.put("POLYLINK_MPI_MPIRUN", rendezvous.contact());
            env.put("POLYLINK_MPI_MPIRUN_KEY", rendezvous.key());
            env.put("POLYLINK_MPI_HOST", host.name());
            if (host.site() != null) {
                env.put("POLYLINK_MPI_SITE", host.site());
            }
            int rank = r;
            ranks.add(RankProcess.start(r, host.name(), remote.command(host.name()), Map.of(), prefix,
                RemoteRanks.line(directory, env, command), () -> rendezvous.stop(rank)));
        }
    }

    /** A rank on another host went silent: its host or the network went; the job fails for it. */
    private void silent(int rank, String why) {
        RankProcess r = ranks.get(rank);
        r.lost(r.name() + " " + why + ": its host or the network between is down");
        events.add(new Ended(r, false));
    }

    /**
     * @param java the java command
     * @param lib where lib/mpi is, on the ranks' hosts
     */
    private List<String> command(String java, String program, String lib) {
        List<String> c = new ArrayList<>();
        c.add(java);
        String javaOptions = System.getenv("POLYLINK_MPI_JAVA_OPTS");
        if (javaOptions != null && !javaOptions.isBlank()) {
            c.addAll(List.of(javaOptions.trim().split("\\s+")));
        }
        String user = options.jar() != null ? options.jar().toAbsolutePath().toString()
            : options.classPath() != null ? options.classPath()
            : System.getenv("CLASSPATH") != null && !System.getenv("CLASSPATH").isBlank() ? System.getenv("CLASSPATH")
            : ".";
        c.add("-cp");
        c.add(lib + File.separator + "*" + File.pathSeparator + user);
        c.add(program);
        c.addAll(options.args());
        return c;
    }

    /**
     * @return the text of the link models (docs/plogp.md) every rank gets: mpirun's own
     *     {@value #MODELS}, or the file's; {@code null} when {@code -x} gives them, when there is
     *     no file, or when it holds too many to carry in an environment
     * @throws IOException if {@code --models} names a file that is not there or cannot be read
     */
    private String models(Path file) throws IOException {
        if (options.exports().stream().anyMatch(x -> x.startsWith(MODELS + "="))) {
            return null; // -x gives them
        }
        if (System.getenv(MODELS) != null) {
            return System.getenv(MODELS); // mpirun's own, to ranks on other hosts too
        }
        if (!Files.isRegularFile(file)) {
            if (options.models() != null) {
                throw new IOException("--models " + file + ": no such file");
            }
            return null;
        }
        if (Files.size(file) > MAX_MODELS) {
            System.err.println("polylink mpirun: " + file + " holds more than " + MAX_MODELS + " bytes of link models, "
                + "more than a rank's environment carries; the ranks run without them (keep the models your jobs use)");
            return null;
        }
        return Files.readString(file);
    }

    /** @return the variables rank {@code rank} gets besides mpirun's own environment */
    private Map<String, String> environment(int rank) {
        Map<String, String> env = new HashMap<>();
        env.put("POLYLINK_MPI_JOB", files.job());
        env.put("POLYLINK_MPI_RANK", Integer.toString(rank));
        env.put("POLYLINK_MPI_SIZE", Integer.toString(options.ranks()));
        env.put("POLYLINK_MPI_REGISTRY", options.zookeeper() != null ? "zookeeper://" + options.zookeeper()
            : files.registry().toString());
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
        if (models != null) {
            env.put(MODELS, models);
        }
        for (String export : options.exports()) {
            int eq = export.indexOf('=');
            env.put(export.substring(0, eq), export.substring(eq + 1));
        }
        return env;
    }

    /** A rank's process ended, or mpirun gave up on a rank that still runs. */
    private record Ended(RankProcess rank, boolean exited) {}

    /**
     * Waits for every rank; after the first failure, the others get the grace, then are stopped. A
     * job that is not wired up yet cannot go on without a rank that failed: the others are stopped
     * at once, as they are when not every rank reported to the rendezvous within the wire-up time.
     */
    private int supervise() throws InterruptedException {
        for (RankProcess r : ranks) {
            r.process().onExit().thenRun(() -> events.add(new Ended(r, true)));
        }
        List<RankProcess> failures = new ArrayList<>();
        long grace = 0;
        long wireup = System.nanoTime() + TimeUnit.SECONDS.toNanos(WIREUP_SECONDS);
        boolean stopping = false;
        for (int left = ranks.size(); left > 0 && !interrupted; ) {
            boolean waitWireup = rendezvous != null && !stopping && !rendezvous.wired();
            boolean waitGrace = !failures.isEmpty() && !stopping;
            long until = waitGrace ? grace : wireup;
            Ended e = !waitGrace && !waitWireup ? events.take()
                : events.poll(until - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (e == null) {
                if (waitGrace) {
                    System.err.println("polylink mpirun: " + left + " rank" + (left == 1 ? " is" : "s are")
                        + " still running " + GRACE_SECONDS + " s after " + failures.get(0).name() + " failed; stopping "
                        + (left == 1 ? "it" : "them"));
                } else if (!rendezvous.wired()) {
                    List<Integer> missing = rendezvous.missing();
                    RankProcess first = ranks.get(missing.get(0));
                    first.lost(first.name() + " did not report to mpirun within " + WIREUP_SECONDS + " s");
                    failures.add(first);
                    System.err.println("polylink mpirun: " + missing.size() + " rank" + (missing.size() == 1 ? "" : "s")
                        + " did not report to mpirun within " + WIREUP_SECONDS + " s (" + String.join(", ",
                        missing.stream().map(r -> ranks.get(r).name()).toList()) + "); stopping the job");
                } else {
                    continue; // wired up just as the wait ended
                }
                stopAll();
                stopping = true;
                continue;
            }
            RankProcess r = e.rank();
            if (!e.exited()) {
                if (!stopping && !interrupted) {
                    System.err.println("polylink mpirun: " + r.lost() + "; " + (failures.isEmpty() ? "stopping the job"
                        : "it is stopped"));
                    failures.add(r);
                    r.process().destroyForcibly();
                    stopAll();
                    stopping = true;
                }
                continue;
            }
            left--;
            int status = r.process().exitValue();
            if (status != 0 && !stopping && !interrupted && r.lost() == null) {
                boolean starting = rendezvous != null && !rendezvous.wired();
                if (failures.isEmpty()) {
                    grace = System.nanoTime() + TimeUnit.SECONDS.toNanos(GRACE_SECONDS);
                    System.err.println("polylink mpirun: " + r.name() + " (pid " + r.process().pid() + ") "
                        + describe(status) + (left == 0 ? "" : starting ? " before the job was wired up; stopping the "
                        + "others" : "; the other ranks have " + GRACE_SECONDS + " s to end"));
                }
                failures.add(r);
                if (starting) {
                    stopAll();
                    stopping = true;
                }
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
     * that aborted, else the first rank that failed. A rank mpirun gave up on is named with why.
     *
     * @param failures the ranks that failed by themselves, in the order they ended
     */
    private int report(List<RankProcess> failures) {
        Optional<String> abort = files.abort().or(() -> rendezvous == null ? Optional.empty() : rendezvous.abort());
        // "RANK CODE REASON", written by the rank that aborted the job
        String[] record = abort.map(a -> a.split(" ", 3)).orElse(null);
        int abortStatus = record == null ? -1 : Integer.parseInt(record[1]) & 0xFF;
        Optional<RankProcess> cause = failures.stream()
            .filter(r -> r.lost() != null || r.process().exitValue() != abortStatus).findFirst();
        if (cause.isEmpty() && record != null) {
            System.err.println("polylink mpirun: job " + files.job() + " failed: " + ranks.get(Integer.parseInt(record[0]))
                .name() + " aborted it with code " + record[1] + (record.length > 2 ? ": " + record[2] : ""));
            return abortStatus;
        }
        RankProcess first = cause.orElse(failures.get(0));
        if (first.lost() != null) {
            System.err.println("polylink mpirun: job " + files.job() + " failed: " + first.lost());
            return 1;
        }
        int status = first.process().exitValue();
        System.err.println("polylink mpirun: job " + files.job() + " failed: " + first.name() + " " + describe(status));
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
        if (rendezvous != null) {
            rendezvous.close();
        }
        if (remote != null && files != null) {
            cleanHosts();
        }
        if (files != null) {
            try {
                files.close();
            } catch (UncheckedIOException e) {
                System.err.println("polylink mpirun: " + e.getCause().getMessage());
            }
        }
    }

    /** Removes the job's files on every host of the job; a host that cannot be reached is named. */
    private void cleanHosts() {
        try {
            List<String> hosts = options.across().hosts().place(options.ranks()).stream().map(Hosts.Host::name)
                .distinct().toList();
            for (String failed : remote.clean(hosts, files.directory(), files.shm())) {
                System.err.println("polylink mpirun: could not remove job " + files.job() + "'s files on " + failed);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
