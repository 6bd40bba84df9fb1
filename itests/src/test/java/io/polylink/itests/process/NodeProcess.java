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
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code bin/polylink node} process of a test, with its console output in a file: a daemon,
 * or a node with the Gogo shell that {@link #shell} types into. Closing it kills it for sure, so
 * no test leaves a process behind even when it fails.
 */
final class NodeProcess implements AutoCloseable {

    /** A thread's first line in a thread dump: its name in quotes, then {@code #} and its number. */
    private static final Pattern THREAD = Pattern.compile("(?m)^\"(.*)\" #\\d+");
    /** What a failed Gogo command prints. */
    private static final String GOGO_ERROR = "gogo: ";
    private static final String PROMPT = "g! ";
    /** A link's line in {@code polylink:links}: its id first. */
    private static final Pattern LINK_ID = Pattern.compile("^([0-9a-f]{16}) ");

    private final String name;
    private final Path home;
    private final Path log;
    private final Process process;
    /** The shell's output lines, prompts removed; empty for a daemon. */
    private final BlockingQueue<String> shellLines = new LinkedBlockingQueue<>();
    private int markers;

    private NodeProcess(String name, Path home, Path log, Process process) {
        this.name = name;
        this.home = home;
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
        return awaitUp(new NodeProcess(name, home, log, builder.start()));
    }

    /**
     * Starts a node with the Gogo shell on its console and waits for its "up" line. The shell
     * stops the node when its input ends ({@code gosh.args} without {@code --noshutdown} in the
     * installation's framework.properties), so the node goes even if this JVM is killed.
     *
     * @param options more options of {@code polylink node}, e.g. --keep-state
     */
    static NodeProcess startWithShell(Path home, String name, String javaOptions, String... options)
            throws IOException {
        Installation.set(home, "framework.properties", "gosh.args", "");
        Path log = logFile(home, name);
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/polylink").toString(), "node", "--name", name));
        command.addAll(List.of(options));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("POLYLINK_JAVA_OPTS", javaOptions);
        NodeProcess node = new NodeProcess(name, home, log, builder.start());
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
                line = withoutPrompts(line);
                if (!line.isBlank()) {
                    shellLines.add(line);
                }
            }
        } catch (IOException e) {
            shellLines.add(GOGO_ERROR + "reading the node's output failed: " + e);
        }
    }

    /** The shell prints its prompt without a line break: what follows on the line is the shell's output. */
    private static String withoutPrompts(String line) {
        String rest = line;
        while (rest.startsWith(PROMPT)) {
            rest = rest.substring(PROMPT.length());
        }
        return rest;
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

    /** @return what the node printed on its console, then its log file, logs/NAME.log */
    String log() {
        return read(log) + "\n--- " + nodeLog() + ":\n" + read(nodeLog());
    }

    /** @return the log file the installation's conf/logging.properties gives the node */
    Path nodeLog() {
        return home.resolve("logs").resolve(name + ".log");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(nothing: " + e + ")";
        }
    }

    void awaitLine(String start, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (read(log).lines().map(NodeProcess::withoutPrompts).noneMatch(l -> l.startsWith(start))) {
            if (!process.isAlive()) {
                throw new AssertionError("node " + name + " exited with " + process.exitValue() + ":\n" + log());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("node " + name + " did not print '" + start + "' within " + limit + ":\n" + log());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    /** @return the names of the node's threads, as a thread dump ({@code jcmd Thread.print}) lists them */
    Set<String> threads() throws IOException, InterruptedException {
        Set<String> names = new TreeSet<>();
        Matcher m = THREAD.matcher(threadDump());
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /** @return the node's thread dump ({@code jcmd Thread.print}) */
    String threadDump() throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process dump = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "Thread.print")
            .redirectErrorStream(true).start();
        String out = new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!dump.waitFor(30, TimeUnit.SECONDS) || dump.exitValue() != 0) {
            dump.destroyForcibly();
            throw new AssertionError("no thread dump of node " + name + ": " + out);
        }
        return out;
    }

    /**
     * @return what a failing test says of the node: its links and why each is on its stack, its
     *     log and its threads, each as far as the node still answers
     */
    String diagnosis() {
        StringBuilder out = new StringBuilder("\n=== node " + name + " ===\n");
        try {
            List<String> links = shell("polylink:links", Duration.ofSeconds(30));
            out.append(String.join("\n", links));
            for (String link : links) {
                Matcher id = LINK_ID.matcher(link);
                if (id.find()) {
                    out.append('\n').append(String.join("\n", shell("polylink:explain " + id.group(1),
                        Duration.ofSeconds(30))));
                }
            }
        } catch (AssertionError e) {
            out.append("(no links: ").append(e.getMessage().lines().findFirst().orElse("")).append(')');
        }
        out.append("\n--- console, then log:\n").append(log());
        try {
            out.append("\n--- threads:\n").append(threadDump());
        } catch (IOException | AssertionError e) {
            out.append("(no thread dump: ").append(e.getMessage()).append(')');
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return out.toString();
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
