package io.polylink.bench.internal.pingpong;

import java.util.concurrent.TimeUnit;

/**
 * Bounds on waits, as plain {@link System#nanoTime()} values so a spin loop can check one without
 * allocating: a peer that stops answering fails the run instead of hanging it.
 */
final class Deadline {

    /** How long one reply or acknowledgement may take. */
    static final long REPLY_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** How long a batch of round trips driven by the reply handler may take. */
    static final long BATCH_NANOS = TimeUnit.MINUTES.toNanos(10);

    private Deadline() {}

    /** @return the deadline for a reply awaited from now */
    static long forReply() {
        return System.nanoTime() + REPLY_NANOS;
    }

    /** @throws IllegalStateException naming what did not come once {@code deadline} has passed */
    static void check(long deadline, String what) {
        if (System.nanoTime() - deadline > 0) {
            throw new IllegalStateException("no " + what + " within the time allowed");
        }
    }
}
