package io.polylink.bench.internal.pingpong;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * How the measuring thread learns that a reply arrived on another thread (a Netty event loop, a
 * Polylink I/O thread): by spinning on a counter, or by parking until the receiving thread
 * unparks it. Spinning answers fastest but keeps a core busy; when the cores are fewer than the
 * busy threads (a spinning I/O thread on each side plus this one), it waits for the scheduler
 * instead, and parking is faster. A Polylink client may instead receive on the measuring thread
 * itself, calling {@code Context.progress()} while it waits: the reply handler then runs there,
 * with no hand-off, wherever the method can be driven so.
 */
final class ReplySignal {

    /** Spin on a counter. */
    static final String SPIN = "spin";
    /** Park, unparked by the receiving thread. */
    static final String PARK = "park";
    /** Call {@code Context.progress()}, which may run the reply handler on this thread; Polylink clients only. */
    static final String PROGRESS = "progress";

    private final boolean park;
    /** What the waiting thread calls between looks at the counter: receives, or {@code null} to spin idle. */
    private final IntSupplier receive;
    private final Thread waiter;
    /** Written by the receiving thread only. */
    private volatile long count;

    /** @param mode {@link #SPIN} or {@link #PARK}; the calling thread is the one that will wait */
    ReplySignal(String mode) {
        this(mode, null);
    }

    /**
     * @param mode {@link #SPIN}, {@link #PARK}, or {@link #PROGRESS} with {@code progress}; the
     *     calling thread is the one that will wait
     * @param progress a context's {@code progress()}, for {@link #PROGRESS}
     */
    ReplySignal(String mode, IntSupplier progress) {
        if (mode.equals(PROGRESS) && progress == null) {
            throw new IllegalArgumentException("--wait progress calls Context.progress() and needs a Polylink client");
        }
        this.park = mode.equals(PARK);
        this.receive = mode.equals(PROGRESS) ? progress : null;
        this.waiter = Thread.currentThread();
    }

    /** @return replies signalled so far */
    long count() {
        return count;
    }

    /** On the receiving thread, which may be the waiting one: one more reply. */
    void signal() {
        count = count + 1;
        if (park) {
            LockSupport.unpark(waiter);
        }
    }

    /**
     * Waits until {@link #count()} has moved past {@code before}.
     *
     * @throws IllegalStateException naming {@code what} if that takes longer than {@link Deadline#REPLY_NANOS}
     */
    void awaitPast(long before, String what) {
        awaitPast(before, what, Deadline.REPLY_NANOS);
    }

    /**
     * Waits until {@link #count()} has moved past {@code before}.
     *
     * @param limitNanos how long that may take
     * @throws IllegalStateException naming {@code what} if it takes longer
     */
    void awaitPast(long before, String what, long limitNanos) {
        long deadline = 0;
        int spins = 0;
        while (count == before) {
            if (park) {
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(100));
            } else if (receive != null) {
                receive.getAsInt();
            } else {
                Thread.onSpinWait();
            }
            if (park || (++spins & 0xFFF) == 0) {
                deadline = deadline == 0 ? System.nanoTime() + limitNanos : deadline;
                Deadline.check(deadline, what);
            }
        }
    }
}
