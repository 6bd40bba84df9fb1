package io.polylink.mpi.internal.datatype;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Unpacks from a byte buffer between its position and its limit, advancing the position: a large
 * message read where its sender's buffer lies, in memory the host's ranks share. Reads past the
 * limit throw {@link java.nio.BufferUnderflowException}; callers check lengths before they read.
 */
public final class BufferReader implements WireReader {

    private final ByteBuffer buffer;

    /** @param buffer read from its position on, in {@link WireWriter#ORDER}, whatever its own order */
    public BufferReader(ByteBuffer buffer) {
        this.buffer = buffer.order(WireWriter.ORDER);
    }

    @Override
    public byte getByte() {
        return buffer.get();
    }

    @Override
    public short getShort() {
        return buffer.getShort();
    }

    @Override
    public int getInt() {
        return buffer.getInt();
    }

    @Override
    public long getLong() {
        return buffer.getLong();
    }

    @Override
    public void getBytes(byte[] target, int offset, int length) {
        buffer.get(target, offset, length);
    }

    @Override
    public void getBytes(ByteBuffer target, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, target.limit());
        target.put(offset, buffer, take(length), length);
    }

    @Override
    public void getValues(Kind kind, Object array, int offset, int count) {
        int length = Math.multiplyExact(count, kind.size());
        Values.get(buffer.slice(take(length), length).order(WireWriter.ORDER), kind, array, offset, count);
    }

    private int take(int n) {
        int at = buffer.position();
        buffer.position(Objects.checkFromIndexSize(at, n, buffer.limit()) + n);
        return at;
    }
}
