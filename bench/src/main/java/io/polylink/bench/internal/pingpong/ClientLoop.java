package io.polylink.bench.internal.pingpong;

import io.polylink.bench.internal.CompilerActivity;
import java.io.BufferedReader;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The measurement, in the client process: per size, warm-up round trips, measured round trips
 * into a histogram, then a one-way stream for the bandwidth figure; all sizes in one go, or one
 * step at a time as an interleaved run's parent asks.
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
    /**
     * An interleaved measurement starts with unmeasured round trips for this long, in batches of
     * at most {@link #PRELUDE_ROUND_TRIPS}: longer than the pair measured before takes to go idle
     * (raw-nio's server polls on for 10 ms, polylink's shm poller with spin for 100 ms), and than
     * a wake-up's effects last.
     */
    private static final long PRELUDE_NANOS = TimeUnit.MILLISECONDS.toNanos(150);
    private static final int PRELUDE_ROUND_TRIPS = 1000;
    /** The steps of an interleaved run, and the client's answer to a warm-up. */
    static final String WARM = "warm";
    static final String MEASURE = "measure";
    static final String WARMED = "warmed ";

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
            Size at = new Size(impl, client, options, jit, progress, histogram, size);
            at.warmRoundTrips();
            at.measureRoundTrips();
            // At least as long as the measured stream: a stream runs code the round trips do not
            // (a full socket, queueing, acknowledgements by the hundred), and a shorter warm-up
            // left the JIT compiling through much of the measured stream.
            at.warmStreams();
            results.println(at.measureStream().toLine());
            results.flush();
        }
    }

    /**
     * The client of an interleaved run: per line of {@code steps}, {@link #WARM} or
     * {@link #MEASURE} and a size, it warms that size up (round trips, then streams) and answers
     * {@link #WARMED}, or measures it and answers with the result line; it returns when the steps
     * end. Between steps it waits on {@code steps}, and its server waits for bytes: the pair stays
     * off the cores while the others are measured.
     *
     * <p>A measurement starts with 150 ms of unmeasured round trips and a short unmeasured stream:
     * they wake both processes' threads from their idle waits, outlast the previous pair's way to
     * idle, and let the buffers a connection gives back after a second without use grow again,
     * before the clock runs.
     */
    static void steps(String impl, PingPongClient client, PingPongOptions options, CompilerActivity jit,
                      BufferedReader steps, PrintStream results, PrintStream progress) throws Exception {
        Histogram histogram = new Histogram(HIGHEST_NANOS, 3);
        String line;
        while ((line = steps.readLine()) != null) {
            String[] words = line.split(" ");
            if (words.length != 2 || !(words[0].equals(WARM) || words[0].equals(MEASURE))) {
                throw new IllegalArgumentException("unknown step '" + line + "'");
            }
            Size at = new Size(impl, client, options, jit, progress, histogram, Integer.parseInt(words[1]));
            if (words[0].equals(WARM)) {
                at.warmRoundTrips();
                at.warmStreams();
                results.println(WARMED + at.size);
            } else {
                at.prelude();
                at.measureRoundTrips();
                at.preludeStream();
                results.println(at.measureStream().toLine());
            }
            results.flush();
        }
    }

    /** One size's work, in the order a run calls it. */
    private static final class Size {
        private final String impl;
        private final PingPongClient client;
        private final CompilerActivity jit;
        private final PrintStream progress;
        private final Histogram histogram;
        private final int size;
        private final int warmup;
        private final int count;
        private final int streamed;

        Size(String impl, PingPongClient client, PingPongOptions options, CompilerActivity jit, PrintStream progress,
             Histogram histogram, int size) throws Exception {
            this.impl = impl;
            this.client = client;
            this.jit = jit;
            this.progress = progress;
            this.histogram = histogram;
            this.size = size;
            this.warmup = options.warmupFor(size);
            this.count = options.countFor(size);
            this.streamed = options.streamFor(size);
            client.size(size);
        }

        void warmRoundTrips() throws Exception {
            progress.printf("%s %d B: %d warm-up and %d measured round trips, %d streamed messages%n",
                impl, size, warmup, count, streamed);
            warmUp(impl + " " + size + " B round trips", () -> client.roundTrips(warmup, histogram), warmup > 0, jit,
                progress);
        }

        void warmStreams() throws Exception {
            warmUp(impl + " " + size + " B streams", () -> client.stream(streamed), warmup > 0, jit, progress);
        }

        /** Unmeasured round trips for {@link #PRELUDE_NANOS} before measured ones, when the run warms up at all. */
        void prelude() throws Exception {
            if (warmup == 0) {
                return;
            }
            int batch = Math.min(PRELUDE_ROUND_TRIPS, Math.max(1, warmup / 10));
            long end = System.nanoTime() + PRELUDE_NANOS;
            do {
                client.roundTrips(batch, histogram);
            } while (System.nanoTime() - end < 0);
        }

        /** An unmeasured stream, a twentieth of the measured one, before it; when the run warms up at all. */
        void preludeStream() throws Exception {
            if (warmup > 0) {
                client.stream(Math.max(1, streamed / 20));
            }
        }

        void measureRoundTrips() throws Exception {
            histogram.reset();
            client.roundTrips(count, histogram);
            if (histogram.getTotalCount() != count) {
                throw new IllegalStateException(impl + " recorded " + histogram.getTotalCount() + " of "
                    + count + " round trips");
            }
        }

        /** @return the size's result: the round trips just measured, and a stream measured now */
        SizeResult measureStream() throws Exception {
            long start = System.nanoTime();
            client.stream(streamed);
            long streamNanos = System.nanoTime() - start;
            return new SizeResult(impl, size, count, histogram.getValueAtPercentile(50),
                histogram.getValueAtPercentile(99), histogram.getMaxValue(), streamed, streamNanos);
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
