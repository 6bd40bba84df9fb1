package io.polylink.bench.internal.pingpong;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM running this jar's {@code Main} with one command. Its stdout is read line by line
 * for the parent; its stderr goes to the parent's stderr. Closing it closes its stdin (the child's
 * signal to exit) and kills it if it does not; a shutdown hook stops it if the parent is stopped
 * first, so no child survives the command. The hook asks first (SIGTERM), so that the child's own
 * hooks delete its temporary files, and kills it only if it is still there after
 * {@value #STOP_SECONDS} s.
 */
public final class ChildJvm implements AutoCloseable {

    private static final String MAIN = "io.polylink.bench.internal.Main";
    private static final int STOP_SECONDS = 5;

    private final String name;
    private final Process process;
    private final Thread hook;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private volatile boolean ended;

    private ChildJvm(String name, Process process) {
        this.name = name;
        this.process = process;
        this.hook = new Thread(this::stop, "pingpong-stop-" + name);
        Runtime.getRuntime().addShutdownHook(hook);
        Thread reader = new Thread(this::read, "pingpong-read-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * @param name for messages, e.g. {@code "raw-nio server"}
     * @param jvmOptions options before the class path
     * @param args the command and its arguments
     */
    static ChildJvm start(String name, List<String> jvmOptions, List<String> args) throws IOException {
        return start(name, jvmOptions, List.of(), args);
    }

    /**
     * @param classPathFirst jars put ahead of this jar on the child's class path (e.g. a framework
     *     whose copy of the OSGi API must win over the one shaded into this jar)
     */
    public static ChildJvm start(String name, List<String> jvmOptions, List<Path> classPathFirst, List<String> args)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        List<String> classPath = new ArrayList<>();
        classPathFirst.forEach(p -> classPath.add(p.toString()));
        classPath.add(System.getProperty("java.class.path"));
        command.add(String.join(File.pathSeparator, classPath));
        command.add(MAIN);
        command.addAll(args);
        Process process = new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .redirectInput(ProcessBuilder.Redirect.PIPE)
            .redirectOutput(ProcessBuilder.Redirect.PIPE)
            .start();
        return new ChildJvm(name, process);
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException e) {
            // the child is gone; awaitLine reports how it ended
        } finally {
            ended = true;
        }
    }

    /**
     * @param deadline a {@link System#nanoTime()} value
     * @return the child's next stdout line
     * @throws IllegalStateException if the child ended or the deadline passed first
     */
    public String nextLine(long deadline) throws InterruptedException {
        while (true) {
            String line = lines.poll(50, TimeUnit.MILLISECONDS);
            if (line != null) {
                return line;
            }
            if (ended && lines.isEmpty()) {
                process.waitFor(5, TimeUnit.SECONDS);
                throw new IllegalStateException(name + " ended" + (process.isAlive() ? ""
                    : " with exit status " + process.exitValue()) + " before it finished");
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(name + " did not finish in time");
            }
        }
    }

    public long pid() {
        return process.pid();
    }

    /** Writes one line to the child's stdin. @throws IOException if the child no longer reads it */
    public void println(String line) throws IOException {
        var in = process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** In the parent's shutdown hook. */
    private void stop() {
        process.destroy();
        try {
            if (process.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroyForcibly();
    }

    @Override
    public void close() throws InterruptedException {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // already gone
        }
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroy();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down: the hook runs and kills what is already dead
        }
    }
}
