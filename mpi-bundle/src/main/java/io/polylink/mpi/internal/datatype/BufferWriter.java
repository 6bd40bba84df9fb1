package io.polylink.mpi.internal.datatype;

import java.nio.ByteBuffer;

/**
 * Packs into a byte buffer from its position, which it advances: a rendezvous chunk staged in
 * direct memory to be lent to its message. The caller has checked that what it packs fits.
 */
public final class BufferWriter implements WireWriter {

    private final ByteBuffer buffer;

    /** @param buffer written from its position on, in {@link WireWriter#ORDER}, whatever its own order */
    public BufferWriter(ByteBuffer buffer) {
        this.buffer = buffer.order(ORDER);
    }

    @Override
    public void putByte(byte value) {
        buffer.put(value);
    }

    @Override
    public void putShort(short value) {
        buffer.putShort(value);
    }

    @Override
    public void putInt(int value) {
        buffer.putInt(value);
    }

    @Override
    public void putLong(long value) {
        buffer.putLong(value);
    }

    @Override
    public void putBytes(byte[] source, int offset, int length) {
        buffer.put(source, offset, length);
    }

    @Override
    public void putBytes(ByteBuffer source, int offset, int length) {
        buffer.put(buffer.position(), source, offset, length);
        buffer.position(buffer.position() + length);
    }

    @Override
    public void putValues(Kind kind, Object array, int offset, int count) {
        Values.put(buffer, kind, array, offset, count);
        buffer.position(buffer.position() + count * kind.size());
    }
}
