package io.polylink.core.internal.observe;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Round-trip times of one link, from its acknowledgements: the time from sending an RSR that
 * asks for an acknowledgement to the acknowledgement that covers it, one sample per request
 * (every few dozen RSRs), never one per RSR. Recorded on the receiving thread that takes the
 * acknowledgement, read by the shell and JMX; both lock-free.
 *
 * <p>A log-linear histogram of nanoseconds: values below {@value #SUB} have a bucket each, and
 * each power of two above is cut into {@value #SUB} / 2 buckets, so a percentile is within 1/{@value #SUB}
 * (1.6 %) of the true one at every scale, in under 5 KiB made at the first sample. Values from
 * 2^{@value #TOP_EXPONENT} ns (18 min) on count as that.
 */
public final class RoundTrips {

    private static final int SUB_BITS = 6;
    private static final int SUB = 1 << SUB_BITS;
    private static final int TOP_EXPONENT = 40;
    private static final long TOP = (1L << TOP_EXPONENT) - 1;
    private static final int BUCKETS = index(TOP) + 1;

    private volatile AtomicIntegerArray counts;

    /** One round trip of {@code nanos} nanoseconds. */
    public void record(long nanos) {
        AtomicIntegerArray c = counts;
        if (c == null) {
            c = made();
        }
        c.incrementAndGet(index(Math.min(TOP, Math.max(0, nanos))));
    }

    private synchronized AtomicIntegerArray made() {
        if (counts == null) {
            counts = new AtomicIntegerArray(BUCKETS);
        }
        return counts;
    }

    /** @return the bucket of {@code v}, 0 to {@link #TOP} */
    private static int index(long v) {
        if (v < SUB) {
            return (int) v;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(v); // SUB_BITS or more
        int shift = exponent - (SUB_BITS - 1);
        return (shift << (SUB_BITS - 1)) + (int) (v >>> shift);
    }

    /** @return the middle of bucket {@code i}: the value it stands for */
    private static long value(int i) {
        if (i < SUB) {
            return i;
        }
        int shift = (i >>> (SUB_BITS - 1)) - 1;
        long lowest = (long) (i - (shift << (SUB_BITS - 1))) << shift;
        return lowest + (1L << shift >>> 1);
    }

    /** @return every round trip recorded so far */
    public Snapshot snapshot() {
        long[] sum = new long[BUCKETS];
        addTo(sum);
        return Snapshot.of(sum);
    }

    /** @return the round trips of all these links together */
    public static Snapshot combined(Iterable<RoundTrips> links) {
        long[] sum = new long[BUCKETS];
        links.forEach(link -> link.addTo(sum));
        return Snapshot.of(sum);
    }

    private void addTo(long[] sum) {
        AtomicIntegerArray c = counts;
        if (c != null) {
            for (int i = 0; i < BUCKETS; i++) {
                sum[i] += c.get(i);
            }
        }
    }

    /**
     * @param count round trips recorded
     * @param p50Nanos the median, in nanoseconds; 0 with no sample
     * @param p99Nanos the 99th percentile, in nanoseconds; 0 with no sample
     * @param maxNanos the longest, in nanoseconds; 0 with no sample
     */
    public record Snapshot(long count, long p50Nanos, long p99Nanos, long maxNanos) {

        static Snapshot of(long[] counts) {
            long count = 0;
            int max = 0;
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] != 0) {
                    count += counts[i];
                    max = i;
                }
            }
            return count == 0 ? new Snapshot(0, 0, 0, 0)
                : new Snapshot(count, at(counts, count, 50), at(counts, count, 99), value(max));
        }

        /** @return the value below which {@code percent} % of the {@code count} samples lie */
        private static long at(long[] counts, long count, int percent) {
            long rank = Math.max(1, (count * percent + 99) / 100);
            long seen = 0;
            for (int i = 0; i < counts.length; i++) {
                seen += counts[i];
                if (seen >= rank) {
                    return value(i);
                }
            }
            throw new IllegalStateException("the counts add up to less than " + count);
        }

        /** @return the median with its unit, {@code 85.2 us}; {@code -} with no sample */
        public String p50() {
            return count == 0 ? "-" : Units.nanos(p50Nanos);
        }

        /** @return the 99th percentile with its unit; {@code -} with no sample */
        public String p99() {
            return count == 0 ? "-" : Units.nanos(p99Nanos);
        }

        /** @return {@code p50 85.2 us, p99 410 us over 120 round trips}, or {@code no round trip timed yet} */
        @Override
        public String toString() {
            return count == 0 ? "no round trip timed yet"
                : "p50 " + p50() + ", p99 " + p99() + " over " + count + " round trips";
        }
    }
}
