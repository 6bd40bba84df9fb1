package io.polylink.core.internal.buffer;

import java.nio.ByteBuffer;

/**
 * Direct memory behind a large application buffer, which the flows that send it keep for replay
 * instead of a copy. Counted: the buffer holds one reference while it writes into the store, and
 * a flow one per RSR it keeps; the last to let go gives it back to its {@link StorePool}.
 *
 * <p>The bytes a flow keeps never change under it: a buffer only appends past what it sent, and
 * one that is cleared, or grows, while a flow still holds its store moves to another store.
 */
public final class SharedStore extends Holders {

    /** Never moved: every user reads and writes through a {@link #view()} of its own. */
    private final ByteBuffer memory;
    private final StorePool pool;

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
        holdAlone();
        return this;
    }

    /** Gives the store back to its pool. */
    @Override
    void lastLetGo() {
        pool.give(this);
    }

    @Override
    public String toString() {
        return "store of " + memory.capacity() + " bytes";
    }
}
