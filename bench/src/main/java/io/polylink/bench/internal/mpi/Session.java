package io.polylink.bench.internal.mpi;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * The processes of one measured run of one implementation (two rank JVMs, or one Open MPI
 * mpirun), with the result lines they print. Their stderr goes to the bench's. Every process ends
 * with the session: on success, on a failure or timeout (SIGTERM, then SIGKILL), and, through a
 * shutdown hook, when the bench itself is stopped.
 */
final class Session implements AutoCloseable {

    private static final int STOP_SECONDS = 5;

    private final String impl;
    private final List<Process> processes = new ArrayList<>();
    private final List<Thread> readers = new ArrayList<>();
    private final ConcurrentLinkedQueue<MpiResult> results = new ConcurrentLinkedQueue<>();
    private final Thread hook;

    Session(String impl) {
        this.impl = impl;
        this.hook = new Thread(this::stop, "polylink-bench-mpi-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Starts a process of the session; its result lines are collected. */
    void start(List<String> command, Map<String, String> environment) throws IOException {
        ProcessBuilder b = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        b.environment().putAll(environment);
        Process p = b.start();
        p.getOutputStream().close();
        processes.add(p);
        Thread reader = new Thread(() -> read(p), "polylink-bench-mpi-read-" + p.pid());
        reader.setDaemon(true);
        reader.start();
        readers.add(reader);
    }

    private void read(Process p) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String echo = line;
                MpiResult.parse(impl, line).ifPresentOrElse(results::add, () -> System.err.println("[" + impl + "] " + echo));
            }
        } catch (IOException ended) {
            // the process is gone; what it printed is in
        }
    }

    /**
     * Waits until every process ended.
     *
     * @return the results, in the order they came
     * @throws IOException naming the process that failed or overstayed {@code limit}
     */
    List<MpiResult> await(Duration limit) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        for (Process p : processes) {
            if (!p.waitFor(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                throw new IOException(impl + ": process " + p.pid() + " did not end within " + limit);
            }
            if (p.exitValue() != 0) {
                throw new IOException(impl + ": process " + p.pid() + " exited with " + p.exitValue());
            }
        }
        for (Thread r : readers) {
            r.join(TimeUnit.SECONDS.toMillis(STOP_SECONDS));
        }
        return List.copyOf(results);
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs, or ran, stop() itself
        }
    }

    private void stop() {
        List<ProcessHandle> all = new ArrayList<>();
        for (Process p : processes) {
            all.addAll(p.descendants().toList());
            all.add(p.toHandle());
        }
        all.forEach(ProcessHandle::destroy);
        for (ProcessHandle p : all) {
            try {
                p.onExit().get(STOP_SECONDS, TimeUnit.SECONDS);
            } catch (Exception stillRunning) {
                p.destroyForcibly();
            }
        }
    }
}
