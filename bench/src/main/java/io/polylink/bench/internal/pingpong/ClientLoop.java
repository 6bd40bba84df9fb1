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
     * Unmeasured round trips, and then unmeasured streams, run for at least this long (unless the
     * round trips' warm-up is 0): the JIT recompiles a path as each part of it turns hot (a full
     * socket, queueing, acknowledgements), for seconds where busy threads leave it little of two
     * cores. Polylink's tcp stream of 64 KiB ran 1.1, 1.5 and then 2.2 GB/s in its first three
     * 1 GiB streams.
     */
    private static final long WARMUP_NANOS = TimeUnit.SECONDS.toNanos(2);
    /**
     * ...and then on until neither process's JIT compiler used CPU for {@link #QUIET_NANOS}, up to
     * this long. After 2 s, polylink's compiler threads still took a core between them through whole
     * measured streams of 64 KiB: one run measured 2.7 GB/s where quiet ones measure 6-8. Round
     * trips measured after a fixed count of them had the same trouble: a scheduler trace showed a
     * C2 thread on one core through the first measured 64 KiB round trips, and both I/O threads
     * taking turns on the other.
     */
    private static final long WARMUP_MAX_NANOS = TimeUnit.SECONDS.toNanos(10);
    /**
     * How long the compilers must have been idle: C2 works in bursts, and a single quiet 1 GiB
     * stream (150 ms) fell between two of them, before a recompile that ran through the measured one.
     */
    private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    /** One unmeasured batch of the work being warmed up. */
    @FunctionalInterface
    private interface Batch {
        void run() throws Exception;
    }

    private ClientLoop() {}

    static void record(Histogram into, long nanos) {
        into.recordValue(Math.min(HIGHEST_NANOS, nanos));
    }

    /**
     * @param jit the client's and the server's compilers
     * @param results where result lines go (the command reads them)
     * @param progress where progress lines go
     */
    static void run(String impl, PingPongClient client, PingPongOptions options, CompilerActivity jit,
                    PrintStream results, PrintStream progress) throws Exception {
        Histogram histogram = new Histogram(HIGHEST_NANOS, 3);
        for (int size : options.sizes()) {
            client.size(size);
            int warmup = options.warmupFor(size);
            int count = options.countFor(size);
            int streamed = options.streamFor(size);
            progress.printf("%s %d B: %d warm-up and %d measured round trips, %d streamed messages%n",
                impl, size, warmup, count, streamed);
            warmUp(impl + " " + size + " B round trips", () -> client.roundTrips(warmup, histogram), warmup > 0, jit,
                progress);
            histogram.reset();
            client.roundTrips(count, histogram);
            if (histogram.getTotalCount() != count) {
                throw new IllegalStateException(impl + " recorded " + histogram.getTotalCount() + " of "
                    + count + " round trips");
            }
            // At least as long as the measured stream: a stream runs code the round trips do not
            // (a full socket, queueing, acknowledgements by the hundred), and a shorter warm-up
            // left the JIT compiling through much of the measured stream.
            warmUp(impl + " " + size + " B streams", () -> client.stream(streamed), warmup > 0, jit, progress);
            long start = System.nanoTime();
            client.stream(streamed);
            long streamNanos = System.nanoTime() - start;
            results.println(new SizeResult(impl, size, count, histogram.getValueAtPercentile(50),
                histogram.getValueAtPercentile(99), histogram.getMaxValue(), streamed, streamNanos).toLine());
            results.flush();
        }
    }

    /**
     * Runs {@code batch} unmeasured: once if {@code warm} is false, else for {@link #WARMUP_NANOS}
     * and then until the compilers stayed idle through {@link #QUIET_NANOS} of whole batches, or
     * {@link #WARMUP_MAX_NANOS} passed.
     */
    private static void warmUp(String what, Batch batch, boolean warm, CompilerActivity jit, PrintStream progress)
            throws Exception {
        if (!warm) {
            batch.run();
            return;
        }
        long started = System.nanoTime();
        long compiled = jit.ticks();
        long quietSince = started;
        while (true) {
            batch.run();
            long now = System.nanoTime();
            long ticks = jit.ticks();
            if (ticks != compiled) {
                compiled = ticks;
                quietSince = now;
            }
            long elapsed = now - started;
            if (elapsed >= WARMUP_NANOS && now - quietSince >= QUIET_NANOS) {
                progress.printf("%s: %d ms unmeasured%n", what, TimeUnit.NANOSECONDS.toMillis(elapsed));
                return;
            }
            if (elapsed >= WARMUP_MAX_NANOS) {
                progress.printf("%s: the JIT still compiled after %d s unmeasured; measuring anyway%n",
                    what, TimeUnit.NANOSECONDS.toSeconds(elapsed));
                return;
            }
        }
    }
}
