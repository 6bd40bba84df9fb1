package io.polylink.mpi.internal.datatype;

import java.nio.ByteBuffer;

/**
 * Bulk copies between primitive arrays and bytes in the byte buffer's order, through its typed
 * views: one copy rather than one call per value.
 */
public final class Values {

    private Values() {}

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
