package io.polylink.demo.internal;

import io.polylink.Context;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Round trips over one link: PING with a payload of the given size, the peer's PONG with the same
 * payload back. One at a time, so each round trip is the latency of the link and nothing else.
 */
final class PingPong {

    private static final long REPLY_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);
    /**
     * Unmeasured round trips go on for at least this long: until the JIT has compiled the path of
     * an RSR, a round trip takes hundreds of microseconds, and a table measured sooner shows the
     * interpreter, not the link. The first size of a link warms up longest: after 500 ms a 16-byte
     * round trip over shm still took 2.5–3 µs (the compiler not done on both sides, the two busy
     * threads not yet on cores of their own), after one second 2.1–2.6 µs, after two 1.1 µs, and
     * 0.4 µs in a long run; the sizes after it find the path compiled.
     */
    private static final long FIRST_WARMUP_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long WARMUP_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Context context;
    private final Startpoint link;
    private final Startpoint replyTo;
    private final PongSignal pongs;
    private boolean warmedBefore;

    /**
     * @param replyTo where the peer sends PONG
     * @param pongs signalled by this node's PONG handler
     */
    PingPong(Context context, Startpoint link, Startpoint replyTo, PongSignal pongs) {
        this.context = context;
        this.link = link;
        this.replyTo = replyTo;
        this.pongs = pongs;
    }

    /** Counts PONGs. */
    static final class PongSignal {
        private final AtomicLong count = new AtomicLong();

        /** Called by the PONG handler, on whichever thread received it. */
        void arrived() {
            count.incrementAndGet();
        }

        long get() {
            return count.get();
        }
    }

    /** Percentiles of one size, in microseconds. */
    record Result(int size, int count, double p50Micros, double p99Micros) {}

    /**
     * @param warmup round trips before measuring, not counted; they go on for at least a second,
     *     two for the first size
     * @throws IllegalStateException if a PONG does not come within 5 s
     */
    Result run(int size, int count, int warmup) {
        byte[] payload = new byte[size];
        for (int i = 0; i < size; i++) {
            payload[i] = (byte) ('a' + i % 16); // compressible, so lz4 has something to do
        }
        MessageBuffer message = context.allocateBuffer(size + 128);
        long[] rtt = new long[count];
        measure(size, count, warmup, payload, message, rtt);
        Arrays.sort(rtt);
        return new Result(size, count, rtt[count / 2] / 1e3, rtt[Math.min(count - 1, (int) (count * 0.99))] / 1e3);
    }

    private void measure(int size, int count, int warmup, byte[] payload, MessageBuffer message, long[] rtt) {
        long warm = System.nanoTime() + (warmedBefore ? WARMUP_NANOS : FIRST_WARMUP_NANOS);
        warmedBefore = true;
        int done = 0;
        while (done < warmup || System.nanoTime() - warm < 0) {
            roundTrip(size, payload, message, done++);
        }
        for (int i = 0; i < count; i++) {
            rtt[i] = roundTrip(size, payload, message, done++);
        }
    }

    /**
     * Sends a PING and waits for its PONG by receiving on this thread ({@link Context#progress}):
     * the PONG's handler runs here, with no wake-up of a parked thread, and this node's poller
     * stands back while the calls come, so on two cores the round trip keeps the two threads it
     * needs and no third one spins beside them.
     *
     * @return the round trip's nanoseconds
     */
    private long roundTrip(int size, byte[] payload, MessageBuffer message, int done) {
        long before = pongs.get();
        long start = System.nanoTime();
        link.send(DemoProtocol.PING, message.clear().putStartpoint(replyTo).putRaw(payload, 0, size));
        while (pongs.get() == before) {
            if (System.nanoTime() - start > REPLY_TIMEOUT_NANOS) {
                throw new IllegalStateException("no PONG within 5 s for a " + size + "-byte PING after "
                    + done + " round trips; the link's selection: " + link.explain().get(0));
            }
            if (context.progress() == 0) {
                Thread.onSpinWait();
            }
        }
        return System.nanoTime() - start;
    }
}
