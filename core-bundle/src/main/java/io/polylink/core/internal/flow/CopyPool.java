package io.polylink.core.internal.flow;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Copies of acknowledged RSRs kept for a flow's next sends, so a steady stream copies into memory
 * it used before instead of allocating (and having the JVM zero) one per send. Small and large
 * copies are pooled apart; large ones shrink back to an idle size once sends stop. Guarded by
 * the flow's lock.
 */
final class CopyPool {

    /**
     * Small copies kept: at least what one acknowledgement frees in a steady exchange
     * ({@link OutboundFlow#ACK_EVERY}), and at most 1 MiB of arrays
     * (docs/performance-notes.md#flow-constants).
     */
    private static final int MAX_SMALL = 1024;
    private static final long MAX_SMALL_BYTES = 1L << 20;
    /**
     * Large copies kept once sends stop for {@link #SHRINK_AFTER_MS}, in bytes; while RSRs flow the
     * pool may hold whatever one acknowledgement frees, up to the flow's pending bound, since
     * acknowledgements come late whenever the peer lacks a core for a moment
     * (docs/performance-notes.md#flow-constants).
     */
    private static final long IDLE_LARGE_BYTES = 4L << 20;
    static final long SHRINK_AFTER_MS = 1000;

    private final ArrayDeque<Pending> small = new ArrayDeque<>();
    private long smallBytes;
    /** Most recently used last. */
    private final ArrayDeque<Pending> large = new ArrayDeque<>();
    private long largeBytes;
    private boolean shrinkDue;
    private long lastLargeSend;
    private final Runnable shrinkLater;

    /** @param shrinkLater has {@link #shrinkIfIdle} called, under the flow's lock, a while from now */
    CopyPool(Runnable shrinkLater) {
        this.shrinkLater = shrinkLater;
    }

    /** @return a recycled copy from the pool for {@code length}'s size class, or a new one */
    Pending take(int length) {
        if (length > RetransmitStore.SMALL_COPY) {
            Pending p = large.pollLast();
            if (p != null) {
                largeBytes -= p.copy.capacity();
                return p;
            }
            return new Pending();
        }
        Pending p = small.poll();
        if (p == null) {
            return new Pending();
        }
        smallBytes -= p.copy.capacity();
        return p;
    }

    /**
     * Keeps an acknowledged copy, if there is room: a large one only while the flow's copies,
     * pending and pooled, stay within {@link RetransmitStore#MAX_PENDING_BYTES}.
     *
     * @param pendingBytes bytes the flow keeps for the peer now
     */
    void give(Pending p, long pendingBytes) {
        int capacity = p.copy.capacity();
        if (capacity <= RetransmitStore.SMALL_COPY) {
            if (small.size() < MAX_SMALL && smallBytes + capacity <= MAX_SMALL_BYTES) {
                small.add(p);
                smallBytes += capacity;
            }
        } else if (largeBytes() + pendingBytes + capacity <= RetransmitStore.MAX_PENDING_BYTES) {
            large.addLast(p);
            largeBytes += capacity;
            if (largeBytes > IDLE_LARGE_BYTES && !shrinkDue) {
                shrinkDue = true;
                shrinkLater.run();
            }
        }
    }

    /** A large RSR was sent now: the pool stays as it is for a while. */
    void largeSent() {
        lastLargeSend = System.nanoTime();
    }

    /**
     * Lets go of large copies beyond the idle size if no large RSR was sent for a while.
     *
     * @param now whether to shrink whatever the clock says (the flow retired)
     * @return 0 if it shrank, or milliseconds until it should look again
     */
    long shrinkIfIdle(boolean now) {
        long idleMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastLargeSend);
        if (idleMs < SHRINK_AFTER_MS && !now) {
            return SHRINK_AFTER_MS - idleMs;
        }
        shrinkDue = false;
        while (largeBytes > IDLE_LARGE_BYTES) {
            largeBytes -= large.pollFirst().copy.capacity();
        }
        return 0;
    }

    /** Lets go of the small copies: the flow gave up. */
    void dropSmall() {
        small.clear();
        smallBytes = 0;
    }

    /** @return bytes held in large copies */
    long largeBytes() {
        return largeBytes;
    }
}
