package io.polylink.mpi.internal.datatype;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/** Packs into a byte array from a position: {@code MPI_Pack}'s output and buffered sends. */
public final class ArrayWriter implements WireWriter {

    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, WireWriter.ORDER);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, WireWriter.ORDER);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, WireWriter.ORDER);

    private final byte[] bytes;
    private int position;

    /** The caller has checked that what it packs fits. */
    public ArrayWriter(byte[] bytes, int position) {
        this.bytes = bytes;
        this.position = position;
    }

    /** @return the position after the last byte written */
    public int position() {
        return position;
    }

    @Override
    public void putByte(byte value) {
        bytes[position++] = value;
    }

    @Override
    public void putShort(short value) {
        SHORT.set(bytes, position, value);
        position += 2;
    }

    @Override
    public void putInt(int value) {
        INT.set(bytes, position, value);
        position += 4;
    }

    @Override
    public void putLong(long value) {
        LONG.set(bytes, position, value);
        position += 8;
    }

    @Override
    public void putBytes(byte[] source, int offset, int length) {
        System.arraycopy(source, offset, bytes, position, length);
        position += length;
    }

    @Override
    public void putBytes(ByteBuffer source, int offset, int length) {
        source.get(offset, bytes, position, length);
        position += length;
    }

    @Override
    public void putValues(Kind kind, Object array, int offset, int count) {
        int length = count * kind.size();
        Values.put(ByteBuffer.wrap(bytes, position, length).order(WireWriter.ORDER), kind, array, offset, count);
        position += length;
    }
}
