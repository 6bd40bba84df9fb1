package io.polylink.bench.internal.pingpong;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The measurement, in the client process: per size, warm-up round trips, measured round trips
 * into a histogram, then a one-way stream for the bandwidth figure.
 */
final class ClientLoop {

    /** Round trips above this are clamped: longer ones mean a broken run, which the deadline catches anyway. */
    private static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(60);
    /**
     * Unmeasured streams run for at least this long (unless the round trips' warm-up is 0): the JIT
     * recompiles a stream's path as each part of it turns hot (a full socket, queueing,
     * acknowledgements), for seconds where busy threads leave it little of two cores. Polylink's
     * tcp stream of 64 KiB ran 1.1, 1.5 and then 2.2 GB/s in its first three 1 GiB streams.
     */
    private static final long STREAM_WARMUP_NANOS = TimeUnit.SECONDS.toNanos(2);

    private ClientLoop() {}

    /** Records one round trip, if this is not a warm-up. */
    static void record(Histogram into, long nanos) {
        if (into != null) {
            into.recordValue(Math.min(HIGHEST_NANOS, nanos));
        }
    }

    /**
     * @param results where result lines go (the command reads them)
     * @param progress where progress lines go
     */
    static void run(String impl, PingPongClient client, PingPongOptions options, PrintStream results,
                    PrintStream progress) throws Exception {
        Histogram histogram = new Histogram(HIGHEST_NANOS, 3);
        for (int size : options.sizes()) {
            client.size(size);
            int warmup = options.warmupFor(size);
            int count = options.countFor(size);
            int streamed = options.streamFor(size);
            progress.printf("%s %d B: %d warm-up and %d measured round trips, %d streamed messages%n",
                impl, size, warmup, count, streamed);
            client.roundTrips(warmup, null);
            histogram.reset();
            client.roundTrips(count, histogram);
            if (histogram.getTotalCount() != count) {
                throw new IllegalStateException(impl + " recorded " + histogram.getTotalCount() + " of "
                    + count + " round trips");
            }
            // At least as long as the measured stream: a stream runs code the round trips do not
            // (a full socket, queueing, acknowledgements by the hundred), and a shorter warm-up
            // left the JIT compiling through much of the measured stream.
            long warmedAt = System.nanoTime() + (warmup > 0 ? STREAM_WARMUP_NANOS : 0);
            do {
                client.stream(streamed);
            } while (System.nanoTime() - warmedAt < 0);
            long start = System.nanoTime();
            client.stream(streamed);
            long streamNanos = System.nanoTime() - start;
            results.println(new SizeResult(impl, size, count, histogram.getValueAtPercentile(50),
                histogram.getValueAtPercentile(99), histogram.getMaxValue(), streamed, streamNanos).toLine());
            results.flush();
        }
    }
}
