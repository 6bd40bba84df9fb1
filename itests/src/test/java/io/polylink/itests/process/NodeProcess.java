package io.polylink.itests.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One {@code bin/polylink node --daemon} process of a test, with its output in a log file. Closing
 * it kills it for sure, so no test leaves a process behind even when it fails.
 */
final class NodeProcess implements AutoCloseable {

    private final String name;
    private final Path log;
    private final Process process;

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
        Path logs = Path.of(System.getProperty("polylink.logs", home.resolve("logs").toString()));
        Path log = logs.resolve(name + "-" + System.currentTimeMillis() + ".log");
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(List.of(home.resolve("bin/polylink").toString(), "node",
            "--name", name, "--daemon"))
            .redirectErrorStream(true).redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE);
        Map<String, String> env = builder.environment();
        env.put("POLYLINK_JAVA_OPTS", javaOptions);
        NodeProcess node = new NodeProcess(name, log, builder.start());
        try {
            node.awaitLine("polylink node " + name + " up", Duration.ofSeconds(60));
        } catch (RuntimeException | Error e) {
            node.close();
            throw e;
        }
        return node;
    }

    long pid() {
        return process.pid();
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
