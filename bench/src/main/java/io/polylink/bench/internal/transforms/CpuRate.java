package io.polylink.bench.internal.transforms;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * Rates of two operations measured alternately on the calling thread, in operations per second
 * of that thread's CPU time: on a busy two-core machine other processes take wall time from the
 * loop but hardly its CPU time, so CPU time compares raw and candidate fairly within one run.
 * Alternating rounds spread any drift (frequency, load) over both.
 */
final class CpuRate {

    /** Operations between clock reads: keeps the clock out of the figure for small messages. */
    private static final int BATCH = 8;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    CpuRate() {
        if (!threads.isCurrentThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM cannot measure a thread's CPU time");
        }
    }

    /** Medians of the rounds, in operations per CPU-second. */
    record Pair(double raw, double candidate) {}

    /**
     * One warm-up round of each, then {@code rounds} alternating rounds of each.
     *
     * @param seconds wall time per round
     */
    Pair compare(Runnable raw, Runnable candidate, double seconds, int rounds) {
        run(raw, seconds);
        run(candidate, seconds);
        double[] rawRates = new double[rounds];
        double[] candidateRates = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            rawRates[r] = run(raw, seconds);
            candidateRates[r] = run(candidate, seconds);
        }
        return new Pair(median(rawRates), median(candidateRates));
    }

    /** @return operations per CPU-second over about {@code seconds} of wall time (at least one batch) */
    private double run(Runnable op, double seconds) {
        long limit = (long) (seconds * 1e9);
        long start = System.nanoTime();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long ops = 0;
        do {
            for (int i = 0; i < BATCH; i++) {
                op.run();
            }
            ops += BATCH;
        } while (System.nanoTime() - start < limit);
        long cpu = Math.max(1, threads.getCurrentThreadCpuTime() - cpuStart);
        return ops / (cpu / 1e9);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
