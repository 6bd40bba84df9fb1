package io.polylink.mpi.internal.p2p;

import java.nio.ByteBuffer;

/**
 * Direct buffers that rendezvous chunks are packed into and lent from, one chunk's size each. A
 * chunk packed into its own message has its store kept by the context until the peer
 * acknowledges it, so each next chunk would be packed into another store, one freed by an
 * acknowledgement long before and no longer in the cache. Lent, a staged chunk comes back as soon
 * as the peer acknowledges it (a lent RSR asks at once), and the next chunk is packed into memory
 * still in the cache. See docs/performance-notes.md#staged-chunks.
 *
 * <p>Buffers out on loan are not counted: the context bounds what a flow holds unacknowledged.
 * Of those that come back, up to {@code keep} are kept. Thread-safe.
 */
final class Staging {

    private final int capacity;
    private final ByteBuffer[] free;
    private int size;

    Staging(int capacity, int keep) {
        this.capacity = capacity;
        this.free = new ByteBuffer[keep];
    }

    /** @return an empty buffer of the chunk size, to be given back with {@link #back} */
    ByteBuffer take() {
        synchronized (this) {
            if (size > 0) {
                ByteBuffer b = free[--size];
                free[size] = null;
                return b.clear();
            }
        }
        return ByteBuffer.allocateDirect(capacity);
    }

    /** @return what gives {@code buffer} back when its loan ends, on whichever thread ends it */
    Runnable back(ByteBuffer buffer) {
        return () -> give(buffer);
    }

    private synchronized void give(ByteBuffer buffer) {
        if (size < free.length) {
            free[size++] = buffer;
        }
    }
}
