package io.polylink.mpi.internal.datatype;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A direct byte buffer from its first byte to its capacity (its position and limit do not count,
 * as in the Open MPI bindings): holds every kind, in native byte order whatever order the buffer
 * is set to. Byte data, and values where native order is the wire's, move in one bulk copy
 * between the buffer and the message, a few bytes eight at a time. It reads and writes by index
 * only, never moving its view's position, so one instance serves every thread.
 */
final class ByteBufferMemory implements Memory {

    private static final VarHandle SHORT = MethodHandles.byteBufferViewVarHandle(short[].class, ByteOrder.nativeOrder());
    private static final VarHandle CHAR = MethodHandles.byteBufferViewVarHandle(char[].class, ByteOrder.nativeOrder());
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    /** Whether values in native order are already in the wire's: then they move as bytes. */
    private static final boolean NATIVE_IS_WIRE = ByteOrder.nativeOrder() == WireWriter.ORDER;
    private static final VarHandle WIRE_LONG = MethodHandles.byteBufferViewVarHandle(long[].class, WireWriter.ORDER);
    /** Byte data shorter than this moves eight bytes at a time; longer, in one bulk copy. */
    private static final int BULK = 64;

    /** The caller's buffer, viewed to its capacity. */
    private final ByteBuffer buffer;
    /** The caller's buffer itself. */
    private final ByteBuffer origin;

    ByteBufferMemory(ByteBuffer buffer) {
        this.buffer = buffer.duplicate().clear();
        this.origin = buffer;
    }

    @Override
    public long capacity() {
        return buffer.capacity();
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
        int p = (int) at;
        if (movesAsBytes(kind)) {
            writeBytes(out, p, n * kind.size());
            return;
        }
        switch (kind) {
            case BOOLEAN -> {
                for (int i = 0; i < n; i++) {
                    out.putByte(buffer.get(p + i) != 0 ? (byte) 1 : 0);
                }
            }
            case CHAR -> {
                for (int i = 0; i < n; i++, p += 2) {
                    out.putShort((short) (char) CHAR.get(buffer, p));
                }
            }
            case SHORT -> {
                for (int i = 0; i < n; i++, p += 2) {
                    out.putShort((short) SHORT.get(buffer, p));
                }
            }
            case INT, FLOAT -> {
                for (int i = 0; i < n; i++, p += 4) {
                    out.putInt((int) INT.get(buffer, p));
                }
            }
            case LONG, DOUBLE -> {
                for (int i = 0; i < n; i++, p += 8) {
                    out.putLong((long) LONG.get(buffer, p));
                }
            }
        }
    }

    @Override
    public Origin wireOrigin(Kind kind) {
        return movesAsBytes(kind) ? new Origin(origin, 0) : null;
    }

    @Override
    public ByteBuffer wireBytes(Kind kind, long at, int length) {
        return movesAsBytes(kind) ? buffer.slice((int) at, length) : null;
    }

    @Override
    public void read(WireReader in, Kind kind, long at, int n) {
        int p = (int) at;
        if (movesAsBytes(kind)) {
            readBytes(in, p, n * kind.size());
            return;
        }
        switch (kind) {
            case BOOLEAN -> {
                for (int i = 0; i < n; i++) {
                    buffer.put(p + i, in.getByte() != 0 ? (byte) 1 : 0);
                }
            }
            case CHAR -> {
                for (int i = 0; i < n; i++, p += 2) {
                    CHAR.set(buffer, p, (char) in.getShort());
                }
            }
            case SHORT -> {
                for (int i = 0; i < n; i++, p += 2) {
                    SHORT.set(buffer, p, in.getShort());
                }
            }
            case INT, FLOAT -> {
                for (int i = 0; i < n; i++, p += 4) {
                    INT.set(buffer, p, in.getInt());
                }
            }
            case LONG, DOUBLE -> {
                for (int i = 0; i < n; i++, p += 8) {
                    LONG.set(buffer, p, in.getLong());
                }
            }
        }
    }

    /** @return whether data of {@code kind} moves as the bytes it is: bytes, and values already in the wire's order */
    private static boolean movesAsBytes(Kind kind) {
        return kind == Kind.BYTE || NATIVE_IS_WIRE && kind != Kind.BOOLEAN;
    }

    /** Moves {@code n} bytes from {@code p} as they are: byte data, or values already in the wire's order. */
    private void writeBytes(WireWriter out, int p, int n) {
        if (n < BULK) {
            int end = p + n;
            for (; p + 8 <= end; p += 8) {
                out.putLong((long) WIRE_LONG.get(buffer, p));
            }
            for (; p < end; p++) {
                out.putByte(buffer.get(p));
            }
            return;
        }
        out.putBytes(buffer, p, n);
    }

    /** Moves {@code n} bytes to {@code p} as they are: the counterpart of {@link #writeBytes}. */
    private void readBytes(WireReader in, int p, int n) {
        if (n < BULK) {
            int end = p + n;
            for (; p + 8 <= end; p += 8) {
                WIRE_LONG.set(buffer, p, in.getLong());
            }
            for (; p < end; p++) {
                buffer.put(p, in.getByte());
            }
            return;
        }
        in.getBytes(buffer, p, n);
    }

    @Override
    public String describe() {
        return "direct ByteBuffer of " + buffer.capacity() + " bytes";
    }
}
