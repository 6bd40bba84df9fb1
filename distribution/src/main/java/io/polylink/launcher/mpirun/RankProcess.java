package io.polylink.launcher.mpirun;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** One rank's JVM, and the pumps that carry its output when it is prefixed. */
final class RankProcess {

    private static final long STOP_WAIT_SECONDS = 5;

    private final int rank;
    private final Process process;
    private final List<LinePump> pumps;

    private RankProcess(int rank, Process process, List<LinePump> pumps) {
        this.rank = rank;
        this.process = process;
        this.pumps = pumps;
    }

    /**
     * Starts rank {@code rank}. Rank 0 reads mpirun's standard input, as the program's first rank
     * does in Open MPI; the others read nothing.
     *
     * @param environment variables added to mpirun's own
     * @param prefix whether each line of output starts with {@code [RANK] }; else the rank writes
     *     to mpirun's output directly
     */
    static RankProcess start(int rank, List<String> command, Map<String, String> environment, boolean prefix)
            throws IOException {
        ProcessBuilder b = new ProcessBuilder(command);
        b.environment().putAll(environment);
        b.redirectInput(rank == 0 ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.PIPE);
        if (!prefix) {
            b.redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT);
        }
        Process p = b.start();
        if (rank != 0) {
            p.getOutputStream().close();
        }
        List<LinePump> pumps = new ArrayList<>();
        if (prefix) {
            String tag = "[" + rank + "] ";
            pumps.add(new LinePump("polylink-mpirun-rank-" + rank + "-out", p.getInputStream(), tag, System.out).start());
            pumps.add(new LinePump("polylink-mpirun-rank-" + rank + "-err", p.getErrorStream(), tag, System.err).start());
        }
        return new RankProcess(rank, p, pumps);
    }

    int rank() {
        return rank;
    }

    Process process() {
        return process;
    }

    /** Asks the rank to end (SIGTERM: its runtime closes and removes its files), unless it has. */
    void terminate() {
        process.destroy();
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
