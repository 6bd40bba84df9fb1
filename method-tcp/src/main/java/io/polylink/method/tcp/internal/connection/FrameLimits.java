package io.polylink.method.tcp.internal.connection;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bounds on the frames a method's connections receive: the largest frame, and the bytes all
 * its connections together may hold for frames larger than a read buffer while they arrive (their
 * buffers grow with the bytes that came, so a peer that announces a large frame and stalls holds
 * only what it sent). Thread-safe: every connection's reader takes from it and gives back.
 */
public final class FrameLimits {

    private final int maxFrame;
    private final long budget;
    private final AtomicLong held = new AtomicLong();

    /**
     * @param maxFrame the largest frame either way
     * @param budget bytes all connections together may hold for large frames
     */
    public FrameLimits(int maxFrame, long budget) {
        this.maxFrame = maxFrame;
        this.budget = budget;
    }

    /** @return the largest frame either way */
    public int maxFrame() {
        return maxFrame;
    }

    /** @return bytes held for large frames now, by every connection */
    public long held() {
        return held.get();
    }

    /** @return the bytes all connections together may hold for large frames */
    long budget() {
        return budget;
    }

    /** @return whether {@code bytes} more fit in the budget; if so they are held until {@link #give} */
    boolean take(long bytes) {
        long now;
        do {
            now = held.get();
            if (now + bytes > budget) {
                return false;
            }
        } while (!held.compareAndSet(now, now + bytes));
        return true;
    }

    /** Gives back {@code bytes} taken before. */
    void give(long bytes) {
        held.addAndGet(-bytes);
    }

    /** @return whether more than half the budget is held: a buffer kept for the next large frame goes back at once */
    boolean pressed() {
        return held.get() > budget / 2;
    }
}
