package io.polylink.bench.internal.pingpong;

import java.util.Locale;

/**
 * What the client process measured for one implementation and size. Travels from the client
 * process to the command as one {@linkplain #toLine() line} on the client's stdout.
 *
 * @param impl the implementation
 * @param size payload bytes per message, each way
 * @param count round trips measured (after the warm-up)
 * @param p50Nanos median round trip
 * @param p99Nanos 99th percentile round trip
 * @param maxNanos slowest round trip
 * @param streamMessages messages streamed one way for the bandwidth figure
 * @param streamNanos from the first streamed send until the server's acknowledgement of the last arrived
 */
record SizeResult(String impl, int size, int count, long p50Nanos, long p99Nanos, long maxNanos,
                  int streamMessages, long streamNanos) {

    static final String CSV_HEADER = "impl,size,count,rtt_p50_us,rtt_p99_us,mb_per_s";
    private static final String LINE_PREFIX = "result ";

    /** @return payload bytes streamed one way per second, in MB (10^6 bytes) */
    double mbPerSecond() {
        return streamNanos <= 0 ? 0 : (double) size * streamMessages * 1e3 / streamNanos;
    }

    /** @return one CSV row under {@link #CSV_HEADER}; figures may be medians, hence not this record's */
    static String csvRow(String impl, int size, int count, double p50Nanos, double p99Nanos, double mbPerSecond) {
        return String.format(Locale.ROOT, "%s,%d,%d,%.2f,%.2f,%.1f", impl, size, count,
            p50Nanos / 1e3, p99Nanos / 1e3, mbPerSecond);
    }

    /** @return the line the client process prints for the command */
    String toLine() {
        return LINE_PREFIX + String.join(" ", impl, Integer.toString(size), Integer.toString(count),
            Long.toString(p50Nanos), Long.toString(p99Nanos), Long.toString(maxNanos),
            Integer.toString(streamMessages), Long.toString(streamNanos));
    }

    static boolean isLine(String line) {
        return line.startsWith(LINE_PREFIX);
    }

    /** @throws IllegalArgumentException if {@code line} is not one {@link #toLine()} made */
    static SizeResult fromLine(String line) {
        String[] f = isLine(line) ? line.substring(LINE_PREFIX.length()).split(" ") : new String[0];
        if (f.length != 8) {
            throw new IllegalArgumentException("not a result line: " + line);
        }
        try {
            return new SizeResult(f[0], Integer.parseInt(f[1]), Integer.parseInt(f[2]), Long.parseLong(f[3]),
                Long.parseLong(f[4]), Long.parseLong(f[5]), Integer.parseInt(f[6]), Long.parseLong(f[7]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a result line: " + line, e);
        }
    }
}
