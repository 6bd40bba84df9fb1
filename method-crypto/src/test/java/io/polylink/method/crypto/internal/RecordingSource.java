package io.polylink.method.crypto.internal;

import io.polylink.MessageTooLargeException;
import io.polylink.spi.BufferSource;
import java.nio.ByteBuffer;

/**
 * A bounded buffer source like the core's, that also counts what it was asked for and what it
 * allocated, so a test can prove a length was checked before memory was spent on it.
 */
final class RecordingSource implements BufferSource {

    private final int bound;
    private ByteBuffer buffer = ByteBuffer.allocate(0);
    int largestRequest;
    long allocatedBytes;

    RecordingSource(int bound) {
        this.bound = bound;
    }

    @Override
    public ByteBuffer acquire(int capacity) {
        largestRequest = Math.max(largestRequest, capacity);
        if (capacity < 0 || capacity > bound) {
            throw new MessageTooLargeException("test source: " + capacity + " bytes requested, the bound is " + bound);
        }
        if (buffer.capacity() < capacity) {
            buffer = ByteBuffer.allocate(capacity);
            allocatedBytes += capacity;
        }
        return buffer.clear();
    }
}
