package io.polylink.core.internal.buffer;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Direct memory behind a large application buffer, which the flows that send it keep for replay
 * instead of a copy. Counted: the buffer holds one reference while it writes into the store, and
 * a flow one per RSR it keeps; the last to let go gives it back to its {@link StorePool}.
 *
 * <p>The bytes a flow keeps never change under it: a buffer only appends past what it sent, and
 * one that is cleared, or grows, while a flow still holds its store moves to another store.
 */
public final class SharedStore {

    /** Never moved: every user reads and writes through a {@link #view()} of its own. */
    private final ByteBuffer memory;
    private final StorePool pool;
    private final AtomicInteger holders = new AtomicInteger();

    SharedStore(StorePool pool, int capacity) {
        this.pool = pool;
        this.memory = ByteBuffer.allocateDirect(capacity);
    }

    int capacity() {
        return memory.capacity();
    }

    /** @return a buffer over the whole store with a position and limit of the caller's own */
    public ByteBuffer view() {
        return memory.duplicate();
    }

    /** Makes the caller the only holder; for a store fresh from its pool. */
    SharedStore taken() {
        holders.set(1);
        return this;
    }

    void retain() {
        holders.incrementAndGet();
    }

    /** Lets go of one reference; the last one gives the store back to the pool, on any thread. */
    public void release() {
        int before = holders.getAndDecrement();
        if (before == 1) {
            pool.give(this);
        } else if (before < 1) {
            throw new IllegalStateException("store released more often than retained");
        }
    }

    /** @return whether anyone but the caller, who holds a reference, holds one */
    boolean shared() {
        return holders.get() > 1;
    }
}
