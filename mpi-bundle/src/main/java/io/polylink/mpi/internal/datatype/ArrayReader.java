package io.polylink.mpi.internal.datatype;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Unpacks from a byte array between a position and a limit: {@code MPI_Unpack}'s input and
 * messages that arrived before their receive. Reads past the limit throw
 * {@link IndexOutOfBoundsException}; callers check lengths before they read.
 */
public final class ArrayReader implements WireReader {

    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, WireWriter.ORDER);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, WireWriter.ORDER);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, WireWriter.ORDER);

    private final byte[] bytes;
    private final int limit;
    private int position;

    public ArrayReader(byte[] bytes, int position, int limit) {
        this.bytes = bytes;
        this.position = position;
        this.limit = limit;
    }

    /** @return the position after the last byte read */
    public int position() {
        return position;
    }

    private int take(int n) {
        int at = position;
        if (n > limit - at) {
            throw new IndexOutOfBoundsException("reading " + n + " bytes at " + at + " of " + limit);
        }
        position = at + n;
        return at;
    }

    @Override
    public byte getByte() {
        return bytes[take(1)];
    }

    @Override
    public short getShort() {
        return (short) SHORT.get(bytes, take(2));
    }

    @Override
    public int getInt() {
        return (int) INT.get(bytes, take(4));
    }

    @Override
    public long getLong() {
        return (long) LONG.get(bytes, take(8));
    }

    @Override
    public void getBytes(byte[] target, int offset, int length) {
        System.arraycopy(bytes, take(length), target, offset, length);
    }

    @Override
    public void getBytes(ByteBuffer target, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, target.limit());
        target.put(offset, bytes, take(length), length);
    }

    @Override
    public void getValues(Kind kind, Object array, int offset, int count) {
        long length = (long) count * kind.size();
        if (length > limit - position) {
            throw new IndexOutOfBoundsException("reading " + length + " bytes at " + position + " of " + limit);
        }
        Values.get(ByteBuffer.wrap(bytes, take((int) length), (int) length).order(WireWriter.ORDER), kind, array, offset, count);
    }
}
