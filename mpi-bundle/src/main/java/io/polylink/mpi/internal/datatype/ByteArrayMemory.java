package io.polylink.mpi.internal.datatype;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** A byte array, or a heap byte buffer's: holds every kind, in native byte order. */
final class ByteArrayMemory implements Memory {

    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.nativeOrder());
    private static final VarHandle CHAR = MethodHandles.byteArrayViewVarHandle(char[].class, ByteOrder.nativeOrder());
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final byte[] bytes;
    private final int base;

    ByteArrayMemory(byte[] bytes, int base) {
        this.bytes = bytes;
        this.base = base;
    }

    /** @return this memory from {@code offset} bytes further in */
    ByteArrayMemory from(int offset) {
        return new ByteArrayMemory(bytes, base + offset);
    }

    byte[] bytes() {
        return bytes;
    }

    int base() {
        return base;
    }

    @Override
    public long capacity() {
        return bytes.length - base;
    }

    @Override
    public boolean holds(Kind kind) {
        return true;
    }

    @Override
    public int granularity() {
        return 1;
    }

    @Override
    public void write(WireWriter out, Kind kind, long at, int n) {
        int p = base + (int) at;
        switch (kind) {
            case BYTE -> out.putBytes(bytes, p, n);
            case BOOLEAN -> {
                for (int i = 0; i < n; i++) {
                    out.putByte(bytes[p + i] != 0 ? (byte) 1 : 0);
                }
            }
            case CHAR -> {
                for (int i = 0; i < n; i++, p += 2) {
                    out.putShort((short) (char) CHAR.get(bytes, p));
                }
            }
            case SHORT -> {
                for (int i = 0; i < n; i++, p += 2) {
                    out.putShort((short) SHORT.get(bytes, p));
                }
            }
            case INT, FLOAT -> {
                for (int i = 0; i < n; i++, p += 4) {
                    out.putInt((int) INT.get(bytes, p));
                }
            }
            case LONG, DOUBLE -> {
                for (int i = 0; i < n; i++, p += 8) {
                    out.putLong((long) LONG.get(bytes, p));
                }
            }
        }
    }

    @Override
    public ByteBuffer wireBytes(Kind kind, long at, int length) {
        return kind == Kind.BYTE ? ByteBuffer.wrap(bytes, base + (int) at, length).slice() : null;
    }

    @Override
    public void read(WireReader in, Kind kind, long at, int n) {
        int p = base + (int) at;
        switch (kind) {
            case BYTE -> in.getBytes(bytes, p, n);
            case BOOLEAN -> {
                for (int i = 0; i < n; i++) {
                    bytes[p + i] = in.getByte() != 0 ? (byte) 1 : 0;
                }
            }
            case CHAR -> {
                for (int i = 0; i < n; i++, p += 2) {
                    CHAR.set(bytes, p, (char) in.getShort());
                }
            }
            case SHORT -> {
                for (int i = 0; i < n; i++, p += 2) {
                    SHORT.set(bytes, p, in.getShort());
                }
            }
            case INT, FLOAT -> {
                for (int i = 0; i < n; i++, p += 4) {
                    INT.set(bytes, p, in.getInt());
                }
            }
            case LONG, DOUBLE -> {
                for (int i = 0; i < n; i++, p += 8) {
                    LONG.set(bytes, p, in.getLong());
                }
            }
        }
    }

    @Override
    public String describe() {
        return base == 0 ? "byte[" + bytes.length + "]" : "byte[" + bytes.length + "] from " + base;
    }
}
