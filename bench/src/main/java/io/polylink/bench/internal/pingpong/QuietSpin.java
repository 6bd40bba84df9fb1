package io.polylink.bench.internal.pingpong;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How a raw shared-memory server waits for its next message: it busy-spins while messages come,
 * and once {@link #QUIET_NANOS} passed without one it parks {@link #PARK_NANOS} between polls, so
 * a pair that waits for its turn in an interleaved run leaves the cores to the pair measured
 * (about 2% of a core each). An interleaved measurement's prelude of unmeasured round trips
 * outlasts the quiet time, so measured round trips find every thread spinning again. One per
 * thread.
 */
final class QuietSpin {

    static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    static final long PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /** Empty polls between clock reads: a read costs as much as a poll. */
    private static final int CLOCK_EVERY = 1024;

    private int spins;
    private long quietSince;

    /** A message came: spin flat out again. */
    void worked() {
        spins = 0;
        quietSince = 0;
    }

    /** Nothing came: spin once, or park once quiet for long. */
    void idle() {
        if (++spins % CLOCK_EVERY != 0) {
            Thread.onSpinWait();
            return;
        }
        long now = System.nanoTime();
        if (quietSince == 0) {
            quietSince = now;
        } else if (now - quietSince >= QUIET_NANOS) {
            LockSupport.parkNanos(PARK_NANOS);
            spins = CLOCK_EVERY - 1; // read the clock again after each park
        }
    }
}
