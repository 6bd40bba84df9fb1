package io.polylink.embedded;

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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A JVM of its own running a single-file Java program with the class path the docs give a plain
 * application (the API, polylink-embedded and the Felix framework), its output in a log file.
 * Closing it kills it and what it started, so no test leaves a process behind.
 */
final class ChildJvm implements AutoCloseable {

    private static final String END = new String("end of output");

    private final Process process;
    private final Path log;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Thread reader;

    private ChildJvm(Process process, Path log) {
        this.process = process;
        this.log = log;
        this.reader = new Thread(this::copyOutput, "test-child-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** The documented class path: polylink-api, polylink-embedded, the Felix framework. */
    static String documentedClassPath() {
        return String.join(java.io.File.pathSeparator, System.getProperty("polylink.api.jar"),
            System.getProperty("polylink.embedded.jar"), System.getProperty("polylink.felix.jar"));
    }

    /**
     * @param source the program, run as {@code java -cp … source args}
     * @param systemProperties {@code -Dkey=value} options
     */
    static ChildJvm run(Path source, List<String> systemProperties, Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(systemProperties);
        command.addAll(List.of("-cp", documentedClassPath(), source.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        return new ChildJvm(p, log);
    }

    private void copyOutput() {
        try (PrintWriter file = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true);
             BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                file.println(line);
                lines.add(line);
            }
        } catch (IOException e) {
            lines.add("(reading the child's output failed: " + e + ")");
        } finally {
            lines.add(END);
        }
    }

    /** @return the first line starting with {@code prefix} */
    String awaitLine(String prefix, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null || line == END) {
                throw new AssertionError("the child did not print a line starting with '" + prefix + "' "
                    + (line == null ? "within " + limit : "before it ended") + ":\n" + output());
            }
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    /** @return its exit code, once it ended by itself within {@code limit} */
    int awaitExit(Duration limit) throws InterruptedException {
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the child did not end within " + limit + ":\n" + output());
        }
        reader.join(TimeUnit.SECONDS.toMillis(5));
        return process.exitValue();
    }

    /** Sends SIGTERM. @return its exit code, once it ended within {@code limit} */
    int terminate(Duration limit) throws InterruptedException {
        process.destroy();
        return awaitExit(limit);
    }

    String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(process.toHandle());
        tree.forEach(ProcessHandle::destroyForcibly);
        process.waitFor(10, TimeUnit.SECONDS);
        reader.join(TimeUnit.SECONDS.toMillis(5));
    }
}
