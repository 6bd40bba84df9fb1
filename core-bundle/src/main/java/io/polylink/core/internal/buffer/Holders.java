package io.polylink.core.internal.buffer;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Memory behind a message that several hold at once, each until it lets go: the buffer that writes
 * it and each flow that keeps an RSR of it for replay. The last to let go ends it
 * ({@link #lastLetGo()}), on whichever thread that is.
 */
abstract class Holders {

    private final AtomicInteger holders = new AtomicInteger();

    /** Makes the caller the only holder. */
    final void holdAlone() {
        holders.set(1);
    }

    public final void retain() {
        holders.incrementAndGet();
    }

    /** Lets go of one reference; the last one ends the memory's use. */
    public final void release() {
        int before = holders.getAndDecrement();
        if (before == 1) {
            lastLetGo();
        } else if (before < 1) {
            throw new IllegalStateException(this + " released more often than retained");
        }
    }

    /** @return whether anyone but the caller, who holds a reference, holds one */
    final boolean shared() {
        return holders.get() > 1;
    }

    /** Nobody holds the memory any more. */
    abstract void lastLetGo();
}
