package io.polylink.launcher.mpirun;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One rank's process: its JVM on this host, or the launcher that runs it on another (whose exit
 * status is the rank's); and the pumps that carry its output when it is prefixed.
 */
final class RankProcess {

    private static final long STOP_WAIT_SECONDS = 5;

    private final int rank;
    private final String host;
    private final Process process;
    private final List<LinePump> pumps;
    private final Runnable stop;
    /** Why mpirun gave up on the rank while its process still ran, or {@code null}. */
    private volatile String lost;

    private RankProcess(int rank, String host, Process process, List<LinePump> pumps, Runnable stop) {
        this.rank = rank;
        this.host = host;
        this.process = process;
        this.pumps = pumps;
        this.stop = stop != null ? stop : process::destroy;
    }

    /**
     * Starts rank {@code rank}. Rank 0 reads mpirun's standard input, as the program's first rank
     * does in Open MPI; the others read nothing.
     *
     * @param host the host the rank runs on, for messages; {@code null} for this one
     * @param environment variables added to mpirun's own
     * @param prefix whether each line of output starts with {@code [RANK] }; else the rank writes
     *     to mpirun's output directly
     * @param firstLine a line the process reads before anything of mpirun's input, or {@code null}
     * @param stop how to ask the rank to end; {@code null} for SIGTERM to the process
     */
    static RankProcess start(int rank, String host, List<String> command, Map<String, String> environment,
                             boolean prefix, String firstLine, Runnable stop) throws IOException {
        ProcessBuilder b = new ProcessBuilder(command);
        b.environment().putAll(environment);
        b.redirectInput(rank == 0 && firstLine == null ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.PIPE);
        if (!prefix) {
            b.redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT);
        }
        Process p = b.start();
        if (firstLine != null) {
            try {
                p.getOutputStream().write((firstLine + "\n").getBytes(StandardCharsets.US_ASCII));
                p.getOutputStream().flush();
            } catch (IOException endedAtOnce) {
                // the launcher failed before reading its command: its exit status says how, naming the host
            }
        }
        if (rank == 0 && firstLine != null) {
            Thread input = new Thread(() -> forwardInput(p), "polylink-mpirun-input");
            input.setDaemon(true);
            input.start();
        } else if (rank != 0) {
            try {
                p.getOutputStream().close();
            } catch (IOException endedAtOnce) {
                // as above
            }
        }
        List<LinePump> pumps = new ArrayList<>();
        if (prefix) {
            String tag = "[" + rank + "] ";
            pumps.add(new LinePump("polylink-mpirun-rank-" + rank + "-out", p.getInputStream(), tag, System.out).start());
            pumps.add(new LinePump("polylink-mpirun-rank-" + rank + "-err", p.getErrorStream(), tag, System.err).start());
        }
        return new RankProcess(rank, host, p, pumps, stop);
    }

    /** Copies mpirun's standard input to rank 0's until either ends. */
    private static void forwardInput(Process p) {
        try (var to = p.getOutputStream()) {
            System.in.transferTo(to);
        } catch (IOException ended) {
            // the rank ended, or mpirun's input did: rank 0 sees its input end
        }
    }

    int rank() {
        return rank;
    }

    /** @return {@code rank R}, or {@code rank R on host H} */
    String name() {
        return "rank " + rank + (host == null ? "" : " on host " + host);
    }

    /** Notes why mpirun gave up on the rank; the first reason stays. */
    void lost(String why) {
        if (lost == null) {
            lost = why;
        }
    }

    /** @return why mpirun gave up on the rank while it ran, or {@code null} */
    String lost() {
        return lost;
    }

    Process process() {
        return process;
    }

    /** Asks the rank to end (its runtime closes and removes its files), unless it has. */
    void terminate() {
        if (process.isAlive()) {
            stop.run();
        }
    }

    /** Ends the rank for sure: SIGKILL unless it ended within the stop wait of {@link #terminate()}. */
    void awaitOrKill() throws InterruptedException {
        try {
            process.onExit().get(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException stillRunning) {
            process.destroyForcibly();
            process.waitFor();
        }
    }

    /** Waits until the rank's output is written, at most {@code millis}. */
    void drain(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (LinePump p : pumps) {
            p.await(TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
        }
    }
}
