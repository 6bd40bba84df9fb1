package io.polylink.itests.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One {@code bin/polylink node} process of a test, with its output in a log file: a daemon, or a
 * node with the Gogo shell that {@link #shell} types into. Closing it kills it for sure, so no
 * test leaves a process behind even when it fails.
 */
final class NodeProcess implements AutoCloseable {

    /** What a failed Gogo command prints. */
    private static final String GOGO_ERROR = "gogo: ";
    private static final String PROMPT = "g! ";

    private final String name;
    private final Path log;
    private final Process process;
    /** The shell's output lines, prompts removed; empty for a daemon. */
    private final BlockingQueue<String> shellLines = new LinkedBlockingQueue<>();
    private int markers;

    private NodeProcess(String name, Path log, Process process) {
        this.name = name;
        this.log = log;
        this.process = process;
    }

    /**
     * Starts a node and waits for its "up" line.
     *
     * @param javaOptions extra JVM options, e.g. -Xmx256m
     */
    static NodeProcess start(Path home, String name, String javaOptions) throws IOException {
        return start(home, name, javaOptions, List.of());
    }

    /**
     * Starts a node under another command, and waits for its "up" line.
     *
     * @param wrapper the command and its options that run the node, e.g. {@code prlimit --nofile=128:128};
     *     it must run the node in its own process (exec), so the node's pid is the process's
     */
    static NodeProcess start(Path home, String name, String javaOptions, List<String> wrapper) throws IOException {
        Path log = logFile(home, name);
        List<String> command = new ArrayList<>(wrapper);
        command.addAll(List.of(home.resolve("bin/polylink").toString(), "node", "--name", name, "--daemon"));
        ProcessBuilder builder = new ProcessBuilder(command)
            .redirectErrorStream(true).redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE);
        Map<String, String> env = builder.environment();
        env.put("POLYLINK_JAVA_OPTS", javaOptions);
        return awaitUp(new NodeProcess(name, log, builder.start()));
    }

    /**
     * Starts a node with the Gogo shell on its console and waits for its "up" line. The shell
     * stops the node when its input ends ({@code gosh.args} without {@code --noshutdown} in the
     * installation's framework.properties), so the node goes even if this JVM is killed.
     */
    static NodeProcess startWithShell(Path home, String name, String javaOptions) throws IOException {
        Installation.set(home, "framework.properties", "gosh.args", "");
        Path log = logFile(home, name);
        ProcessBuilder builder = new ProcessBuilder(List.of(home.resolve("bin/polylink").toString(), "node",
            "--name", name)).redirectErrorStream(true);
        builder.environment().put("POLYLINK_JAVA_OPTS", javaOptions);
        NodeProcess node = new NodeProcess(name, log, builder.start());
        Thread copy = new Thread(node::copyOutput, "test-node-" + name + "-output");
        copy.setDaemon(true);
        copy.start();
        return awaitUp(node);
    }

    private static Path logFile(Path home, String name) throws IOException {
        Path logs = Path.of(System.getProperty("polylink.logs", home.resolve("logs").toString()));
        Path log = logs.resolve(name + "-" + System.currentTimeMillis() + ".log");
        Files.createDirectories(log.getParent());
        return log;
    }

    private static NodeProcess awaitUp(NodeProcess node) {
        try {
            node.awaitLine("polylink node " + node.name + " up", Duration.ofSeconds(60));
        } catch (RuntimeException | Error e) {
            node.close();
            throw e;
        }
        return node;
    }

    long pid() {
        return process.pid();
    }

    /** The shell node's output into its log file, and the shell's lines into {@link #shellLines}. */
    private void copyOutput() {
        try (PrintWriter file = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true);
             BufferedReader out = new BufferedReader(
                 new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                file.println(line);
                while (line.startsWith(PROMPT)) {
                    line = line.substring(PROMPT.length());
                }
                if (!line.isBlank()) {
                    shellLines.add(line);
                }
            }
        } catch (IOException e) {
            shellLines.add(GOGO_ERROR + "reading the node's output failed: " + e);
        }
    }

    /**
     * Runs one Gogo command line on a node started with {@link #startWithShell}: the command, then
     * {@code echo} of a fresh marker, and the output read up to the marker (Gogo runs one line
     * after the other).
     *
     * @return the lines it printed, prompts and blank lines removed
     * @throws AssertionError if the command failed, the node ended, or no answer came within {@code limit}
     */
    List<String> shell(String command, Duration limit) {
        String marker = "@@" + name + "-done-" + (++markers);
        try {
            var in = process.getOutputStream();
            in.write((command + "\necho " + marker + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        } catch (IOException e) {
            throw new AssertionError("node " + name + " no longer takes commands (" + e.getMessage() + "):\n" + log(), e);
        }
        long deadline = System.nanoTime() + limit.toNanos();
        List<String> out = new ArrayList<>();
        String failure = null;
        while (true) {
            String line;
            try {
                line = shellLines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while node " + name + " ran '" + command + "'", e);
            }
            if (line == null) {
                throw new AssertionError("node " + name + " did not finish '" + command + "' within " + limit
                    + (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")") + ":\n" + log());
            }
            if (line.equals(marker)) {
                break;
            }
            if (line.startsWith(GOGO_ERROR)) {
                failure = line.substring(GOGO_ERROR.length());
            } else {
                out.add(line);
            }
        }
        if (failure != null) {
            throw new AssertionError("'" + command + "' failed on node " + name + ": " + failure + "; it printed " + out);
        }
        return out;
    }

    String log() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    void awaitLine(String start, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (log().lines().noneMatch(l -> l.startsWith(start))) {
            if (!process.isAlive()) {
                throw new AssertionError("node " + name + " exited with " + process.exitValue() + ":\n" + log());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("node " + name + " did not print '" + start + "' within " + limit + ":\n" + log());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    /** kill -9. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new AssertionError("node " + name + " survived kill -9");
        }
    }

    /** SIGSTOP or SIGCONT: a node that goes silent without closing its sockets. */
    void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    /** SIGTERM, as Ctrl-C: the node shuts down cleanly. @return its exit code */
    int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("node " + name + " did not stop within 30 s of SIGTERM:\n" + log());
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                signal("CONT");
            } catch (IOException | InterruptedException | AssertionError ignored) {
                // killing it anyway
            }
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Closes all, even if one fails. */
    static void closeAll(List<NodeProcess> nodes) {
        List<RuntimeException> failures = new ArrayList<>();
        for (NodeProcess n : nodes) {
            try {
                n.close();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }
}
