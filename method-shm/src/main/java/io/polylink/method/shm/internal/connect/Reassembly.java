package io.polylink.method.shm.internal.connect;

import java.nio.ByteBuffer;

/**
 * Buffers for frames too large for one record, kept from one frame to the next: a stream of
 * large frames allocates (and the JVM zeroes) no buffer per frame. One spare is kept, the largest
 * returned, and dropped after {@link #IDLE_TICKS} ticks without a split frame, so an idle context
 * holds none. Frames are bounded by the core's maximum frame size, and so is the spare.
 *
 * <p>Only the poller thread uses it: the receiver is handed a frame only for the duration of
 * {@code onFrame}, after which its buffer comes back here.
 */
public final class Reassembly {

    /** Ticks of the poller (100 ms each) after which an unused spare goes. */
    static final int IDLE_TICKS = 100;
    /** Buffers are allocated in multiples of this, so frames of nearby sizes share one. */
    private static final int GRAIN = 64 * 1024;

    private ByteBuffer spare;
    private int idleTicks;

    /** @return a buffer with position 0 and limit {@code length}, the spare if it is large enough */
    ByteBuffer take(int length) {
        ByteBuffer b = spare;
        if (b != null && b.capacity() >= length) {
            spare = null;
            return b.clear().limit(length);
        }
        int capacity = (int) Math.min(Integer.MAX_VALUE - 8, ((long) length + GRAIN - 1) / GRAIN * GRAIN);
        return ByteBuffer.allocate(capacity).limit(length);
    }

    /** Takes back a buffer from {@link #take} whose frame was delivered. */
    void give(ByteBuffer buffer) {
        if (spare == null || spare.capacity() < buffer.capacity()) {
            spare = buffer;
        }
        idleTicks = 0;
    }

    /** On the poller's tick: lets an unused spare go. */
    public void tick() {
        if (spare != null && ++idleTicks >= IDLE_TICKS) {
            spare = null;
            idleTicks = 0;
        }
    }
}
