package io.polylink.core.internal.buffer;

import io.polylink.MessageTooLargeException;
import io.polylink.spi.BufferSource;
import java.nio.ByteBuffer;

/** A reusable buffer that grows on demand up to a bound; lent to transforms. */
public final class ScratchBuffer implements BufferSource {

    private final int bound;
    private final String purpose;
    private ByteBuffer buffer = ByteBuffer.allocate(0);

    public ScratchBuffer(int bound, String purpose) {
        this.bound = bound;
        this.purpose = purpose;
    }

    @Override
    public ByteBuffer acquire(int capacity) {
        if (capacity < 0 || capacity > bound) {
            throw new MessageTooLargeException(purpose + " needs " + capacity
                + " bytes, more than the bound of " + bound);
        }
        if (buffer.capacity() < capacity) {
            buffer = ByteBuffer.allocate(Math.min(bound, Math.max(capacity, buffer.capacity() * 2)));
        }
        return buffer.clear();
    }
}
