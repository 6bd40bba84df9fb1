package io.polylink.bench.internal.mpi;

import java.util.Locale;
import java.util.Optional;

/**
 * One figure of one run: a line {@code result TEST SIZE COMPUTE_US VALUE} of {@code osu.c} or
 * {@link OsuRank}, with the implementation that printed it.
 *
 * @param impl e.g. {@code polylink:shm}, {@code openmpi:vader}
 * @param test {@code latency} (us one way), {@code bw} (MB/s), {@code overlap_send_wait} or
 *     {@code overlap_recv_wait} (us in wait per iteration)
 * @param size the message size in bytes
 * @param computeMicros the overlap experiment's computation between post and wait; 0 for the others
 * @param value the figure
 */
record MpiResult(String impl, String test, int size, int computeMicros, double value) {

    /** The CSV header; {@link #csv(int)} writes one row under it. */
    static final String CSV_HEADER = "impl,test,size,compute_us,run,value,unit";

    /** @return the result on {@code line}, or empty if it is not a result line */
    static Optional<MpiResult> parse(String impl, String line) {
        String[] f = line.trim().split("\\s+");
        if (f.length != 5 || !f[0].equals("result")) {
            return Optional.empty();
        }
        try {
            return Optional.of(new MpiResult(impl, f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]),
                Double.parseDouble(f[4])));
        } catch (NumberFormatException notOurs) {
            return Optional.empty();
        }
    }

    /** @return the unit of {@link #value} */
    String unit() {
        return test.equals("bw") ? "MB/s" : "us";
    }

    /** @return a CSV row for run {@code run} (from 1) */
    String csv(int run) {
        return String.format(Locale.ROOT, "%s,%s,%d,%d,%d,%.4f,%s", impl, test, size, computeMicros, run, value, unit());
    }

    /** @return whether this is the figure {@code test} at {@code size} and {@code computeMicros} */
    boolean is(String t, int s, int c) {
        return test.equals(t) && size == s && computeMicros == c;
    }
}
