package io.polylink.testkit;

import io.polylink.MessageTooLargeException;
import io.polylink.spi.BufferSource;
import java.nio.ByteBuffer;

/**
 * A bounded buffer source like the core's, that also counts what it was asked for and what it
 * allocated, so a test can prove a length was checked before memory was spent on it.
 */
public final class RecordingSource implements BufferSource {

    private final int bound;
    private ByteBuffer buffer = ByteBuffer.allocate(0);
    private int largestRequest;
    private long allocatedBytes;

    /** @param bound the largest buffer it hands out; larger requests fail as the core's would */
    public RecordingSource(int bound) {
        this.bound = bound;
    }

    /** @return the largest capacity asked for so far */
    public int largestRequest() {
        return largestRequest;
    }

    /** @return bytes allocated so far */
    public long allocatedBytes() {
        return allocatedBytes;
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
