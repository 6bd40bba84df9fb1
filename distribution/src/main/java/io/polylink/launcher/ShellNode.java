package io.polylink.launcher;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@code polylink node} child process driven through its Gogo console: a command goes to the
 * node's standard input followed by {@code echo} of a fresh marker, and the node's output is read
 * back up to that marker. Gogo runs one line after the other, so the marker comes after the
 * command's last line even when the command failed.
 *
 * <p>The node must run with a shell that stops the framework when its input ends (no
 * {@code --noshutdown}): if the driver dies in any way, its end of the pipe closes and the node
 * stops by itself.
 */
final class ShellNode implements AutoCloseable {

    /** What a failed Gogo command prints, after the prompt. */
    private static final String GOGO_ERROR = "gogo: ";
    private static final String PROMPT = "g! ";
    /** Put in the queue when the node's output ends. */
    private static final String END_OF_OUTPUT = new String("end of output");

    private final String name;
    private final String nodeName;
    private final Process process;
    private final Writer input;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Thread reader;
    private final Path log;
    private int markers;

    private ShellNode(String name, String nodeName, Process process, Path log) throws IOException {
        this.name = name;
        this.nodeName = nodeName;
        this.log = log;
        this.process = process;
        this.input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        PrintWriter logFile = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true);
        this.reader = new Thread(() -> copyOutput(logFile), "polylink-demo-" + name + "-output");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code bin/polylink node --name NODE_NAME --conf CONF} with its output (both streams)
     * in {@code log}; {@link #awaitLine} then waits for its "up" line.
     *
     * @param name what the demo calls the node
     * @param nodeName the node's name in run/
     */
    static ShellNode start(Home home, Path conf, String name, String nodeName, Path log) throws IOException {
        Process process = new ProcessBuilder(home.root().resolve("bin/polylink").toString(), "node", "--name",
            nodeName, "--conf", conf.toString())
            .redirectErrorStream(true)
            .start();
        return new ShellNode(name, nodeName, process, log);
    }

    String name() {
        return name;
    }

    String nodeName() {
        return nodeName;
    }

    long pid() {
        return process.pid();
    }

    /** @return the first output line starting with {@code prefix}, after the prompt */
    String awaitLine(String prefix, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            String line = next(deadline, "a line starting with '" + prefix + "'");
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    /**
     * Runs one Gogo command line.
     *
     * @return the lines it printed, without prompts, blank lines and INFO log records
     * @throws NodeFailure if the command failed, the node exited, or no answer came within {@code limit}
     */
    List<String> run(String command, Duration limit) {
        String marker = "@@" + name + "-done-" + (++markers);
        try {
            input.write(command + "\necho " + marker + "\n");
            input.flush();
        } catch (IOException e) {
            throw new NodeFailure("node " + name + " no longer takes commands (" + e.getMessage() + ")"
                + exitNote() + "; see " + log);
        }
        long deadline = System.nanoTime() + limit.toNanos();
        List<String> out = new ArrayList<>();
        String failure = null;
        while (true) {
            String line = next(deadline, "the end of '" + command + "'");
            if (line.equals(marker)) {
                break;
            }
            if (line.startsWith(GOGO_ERROR)) {
                failure = line.substring(GOGO_ERROR.length());
            } else if (LogLines.keep(line)) {
                out.add(line);
            }
        }
        if (failure != null) {
            throw new NodeFailure("'" + command + "' failed on node " + name + ": " + failure);
        }
        return out;
    }

    private String next(long deadline, String awaited) {
        try {
            long left = deadline - System.nanoTime();
            String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
            if (line == null) {
                throw new NodeFailure("node " + name + " did not print " + awaited + " in time; see " + log);
            }
            if (line == END_OF_OUTPUT) {
                lines.add(END_OF_OUTPUT); // later calls fail the same way
                throw new NodeFailure("node " + name + " ended before printing " + awaited + exitNote()
                    + "; see " + log);
            }
            return line;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NodeFailure("interrupted while waiting for node " + name);
        }
    }

    private String exitNote() {
        try {
            return process.waitFor(1, TimeUnit.SECONDS) ? " (exit code " + process.exitValue() + ")" : "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private void copyOutput(PrintWriter log) {
        try (log; BufferedReader out = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                log.println(line);
                while (line.startsWith(PROMPT)) {
                    line = line.substring(PROMPT.length());
                }
                if (!line.isBlank()) {
                    lines.add(line);
                }
            }
        } catch (IOException e) {
            log.println("(demo: reading the node's output failed: " + e + ")");
        } finally {
            lines.add(END_OF_OUTPUT);
        }
    }

    /**
     * Stops the node and everything it started, waiting a bounded time at each step: end of input
     * (the shell stops the framework cleanly), then SIGTERM, then SIGKILL.
     */
    @Override
    public void close() {
        try {
            input.close();
        } catch (IOException alreadyGone) {
            // the node has ended: nothing to tell it
        }
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(process.toHandle());
        if (!awaitExit(tree, Duration.ofSeconds(10))) {
            tree.forEach(ProcessHandle::destroy);
            if (!awaitExit(tree, Duration.ofSeconds(5))) {
                tree.forEach(ProcessHandle::destroyForcibly);
                awaitExit(tree, Duration.ofSeconds(5));
            }
        }
        try {
            reader.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean awaitExit(List<ProcessHandle> processes, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        for (ProcessHandle p : processes) {
            try {
                p.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                return false;
            } catch (ExecutionException e) {
                // onExit does not fail
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** A node did not do what the demo asked; the message says which and where its log is. */
    static final class NodeFailure extends RuntimeException {
        NodeFailure(String message) {
            super(message);
        }
    }
}
