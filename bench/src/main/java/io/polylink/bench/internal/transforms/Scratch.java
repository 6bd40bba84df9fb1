package io.polylink.bench.internal.transforms;

import io.polylink.MessageTooLargeException;
import io.polylink.spi.BufferSource;
import java.nio.ByteBuffer;

/** One reused heap buffer, grown on demand and bounded like the core's scratch buffers. */
final class Scratch implements BufferSource {

    /** The core's default maximum message size, with room for a transform's overhead. */
    private static final int BOUND = (8 << 20) + 4096;

    private ByteBuffer buffer = ByteBuffer.allocate(0);

    @Override
    public ByteBuffer acquire(int capacity) {
        if (capacity > BOUND) {
            throw new MessageTooLargeException(capacity + " bytes asked for, over the bound of " + BOUND);
        }
        if (buffer.capacity() < capacity) {
            buffer = ByteBuffer.allocate(capacity);
        }
        return buffer.clear();
    }
}
