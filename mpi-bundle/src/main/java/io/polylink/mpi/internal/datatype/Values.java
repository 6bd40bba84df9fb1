package io.polylink.mpi.internal.datatype;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Copies between primitive arrays and bytes: in bulk through the byte buffer's typed views, one
 * copy rather than one call per value; and in native order at a byte index, a few values one by
 * one, where a view would cost more than they do.
 */
public final class Values {

    /**
     * Up to this many values move one by one: a typed view and a slice cost more than the values
     * themselves, as in a small reduction's every call.
     */
    private static final int FEW = 16;

    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final VarHandle SHORTS = MethodHandles.byteBufferViewVarHandle(short[].class, NATIVE);
    private static final VarHandle CHARS = MethodHandles.byteBufferViewVarHandle(char[].class, NATIVE);
    private static final VarHandle INTS = MethodHandles.byteBufferViewVarHandle(int[].class, NATIVE);
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, NATIVE);
    private static final VarHandle FLOATS = MethodHandles.byteBufferViewVarHandle(float[].class, NATIVE);
    private static final VarHandle DOUBLES = MethodHandles.byteBufferViewVarHandle(double[].class, NATIVE);

    private Values() {}

    /**
     * Reads {@code count} values in native order from byte {@code at} of {@code from}, whatever
     * its position and order, into {@code array} from {@code offset}.
     */
    public static void getNative(ByteBuffer from, int at, Kind kind, Object array, int offset, int count) {
        if (count > FEW || kind == Kind.BYTE || kind == Kind.BOOLEAN) {
            get(from.slice(at, count * kind.size()).order(NATIVE), kind, array, offset, count);
            return;
        }
        int size = kind.size();
        for (int i = 0; i < count; i++) {
            int b = at + i * size;
            switch (kind) {
                case SHORT -> ((short[]) array)[offset + i] = (short) SHORTS.get(from, b);
                case CHAR -> ((char[]) array)[offset + i] = (char) CHARS.get(from, b);
                case INT -> ((int[]) array)[offset + i] = (int) INTS.get(from, b);
                case LONG -> ((long[]) array)[offset + i] = (long) LONGS.get(from, b);
                case FLOAT -> ((float[]) array)[offset + i] = (float) FLOATS.get(from, b);
                default -> ((double[]) array)[offset + i] = (double) DOUBLES.get(from, b);
            }
        }
    }

    /**
     * Writes {@code count} values of {@code array} from {@code offset} in native order at byte
     * {@code at} of {@code to}, whatever its position and order.
     */
    public static void putNative(ByteBuffer to, int at, Kind kind, Object array, int offset, int count) {
        if (count > FEW || kind == Kind.BYTE || kind == Kind.BOOLEAN) {
            put(to.slice(at, count * kind.size()).order(NATIVE), kind, array, offset, count);
            return;
        }
        int size = kind.size();
        for (int i = 0; i < count; i++) {
            int b = at + i * size;
            switch (kind) {
                case SHORT -> SHORTS.set(to, b, ((short[]) array)[offset + i]);
                case CHAR -> CHARS.set(to, b, ((char[]) array)[offset + i]);
                case INT -> INTS.set(to, b, ((int[]) array)[offset + i]);
                case LONG -> LONGS.set(to, b, ((long[]) array)[offset + i]);
                case FLOAT -> FLOATS.set(to, b, ((float[]) array)[offset + i]);
                default -> DOUBLES.set(to, b, ((double[]) array)[offset + i]);
            }
        }
    }

    /** Writes {@code count} values of {@code array} from {@code offset} at {@code to}'s position. */
    public static void put(ByteBuffer to, Kind kind, Object array, int offset, int count) {
        switch (kind) {
            case SHORT -> to.asShortBuffer().put((short[]) array, offset, count);
            case CHAR -> to.asCharBuffer().put((char[]) array, offset, count);
            case INT -> to.asIntBuffer().put((int[]) array, offset, count);
            case LONG -> to.asLongBuffer().put((long[]) array, offset, count);
            case FLOAT -> to.asFloatBuffer().put((float[]) array, offset, count);
            case DOUBLE -> to.asDoubleBuffer().put((double[]) array, offset, count);
            case BYTE -> to.duplicate().put((byte[]) array, offset, count);
            case BOOLEAN -> throw new IllegalArgumentException(kind + " values go one by one");
        }
    }

    /** Reads {@code count} values into {@code array} from {@code offset}, from {@code from}'s position. */
    public static void get(ByteBuffer from, Kind kind, Object array, int offset, int count) {
        switch (kind) {
            case SHORT -> from.asShortBuffer().get((short[]) array, offset, count);
            case CHAR -> from.asCharBuffer().get((char[]) array, offset, count);
            case INT -> from.asIntBuffer().get((int[]) array, offset, count);
            case LONG -> from.asLongBuffer().get((long[]) array, offset, count);
            case FLOAT -> from.asFloatBuffer().get((float[]) array, offset, count);
            case DOUBLE -> from.asDoubleBuffer().get((double[]) array, offset, count);
            case BYTE -> from.duplicate().get((byte[]) array, offset, count);
            case BOOLEAN -> throw new IllegalArgumentException(kind + " values go one by one");
        }
    }
}
