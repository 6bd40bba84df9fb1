package io.polylink.itests.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * One run of {@code bin/polylink} with its output (both streams) in a log file, bounded in time;
 * a run that overstays is killed with everything it started, so no test leaves a process behind.
 *
 * @param pid the process's id (bin/polylink execs the JVM, so the launcher's too)
 * @param exitCode the process's exit code
 * @param output what it printed
 */
record LauncherRun(long pid, int exitCode, String output) {

    static LauncherRun of(Path home, Duration limit, String... args) throws IOException, InterruptedException {
        Path log = log(home, args.length == 0 ? "" : args[0]);
        Process process = start(home, log, args);
        try {
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("polylink " + String.join(" ", args) + " did not end within " + limit + ":\n"
                    + Files.readString(log, StandardCharsets.UTF_8));
            }
        } finally {
            destroyTree(process);
        }
        return new LauncherRun(process.pid(), process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    private static Path log(Path home, String command) throws IOException {
        Path logs = Path.of(System.getProperty("polylink.logs", home.resolve("logs").toString()));
        Files.createDirectories(logs);
        return logs.resolve("polylink-" + command + "-" + System.nanoTime() + ".log");
    }

    private static Process start(Path home, Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/polylink").toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.PIPE).start();
    }

    /**
     * Starts the launcher, and once its output shows {@code line}, sends it SIGINT (what Ctrl-C
     * does) and waits for it to end.
     */
    static LauncherRun interruptedAt(String line, Path home, Duration limit, String... args)
            throws IOException, InterruptedException {
        requireSigintDelivered();
        Path log = log(home, args[0] + "-interrupted");
        Process process = start(home, log, args);
        try {
            long deadline = System.nanoTime() + limit.toNanos();
            while (!Files.readString(log, StandardCharsets.UTF_8).contains(line)) {
                if (!process.isAlive() || System.nanoTime() - deadline > 0) {
                    throw new AssertionError("polylink " + String.join(" ", args) + " never printed '" + line
                        + "' within " + limit + ":\n" + Files.readString(log, StandardCharsets.UTF_8));
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
            Process kill = new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new AssertionError("kill -INT " + process.pid() + " failed");
            }
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("polylink " + String.join(" ", args) + " did not end within " + limit
                    + " of SIGINT:\n" + Files.readString(log, StandardCharsets.UTF_8));
            }
        } finally {
            destroyTree(process);
        }
        return new LauncherRun(process.pid(), process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    /**
     * A process that ignores SIGINT hands that on to everything it starts, and a JVM that starts
     * with SIGINT ignored never installs its handler: the launcher would run on as if no Ctrl-C
     * came. Bash ignores SIGINT in commands it puts in the background without job control.
     */
    static void requireSigintDelivered() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return; // not Linux: nothing to tell
        }
        for (String line : Files.readAllLines(status, StandardCharsets.US_ASCII)) {
            if (line.startsWith("SigIgn:") && (Long.parseLong(line.substring(7).trim(), 16) & 1L << 1) != 0) {
                throw new AssertionError("this test JVM ignores SIGINT, and so would the launcher it starts: the "
                    + "build was started in the background by a shell without job control ('mvn verify &' in a "
                    + "script); run it in the foreground, or with 'set -m'");
            }
        }
    }

    /** Kills {@code process} and whatever it started that still runs, and waits until they are gone. */
    static void destroyTree(Process process) throws InterruptedException {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(process.toHandle());
        tree.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle p : tree) {
            try {
                p.onExit().get(10, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new AssertionError("process " + p.pid() + " survived kill -9", e);
            }
        }
    }
}
