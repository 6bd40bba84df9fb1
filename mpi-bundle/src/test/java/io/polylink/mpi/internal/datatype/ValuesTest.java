package io.polylink.mpi.internal.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class ValuesTest {

    private static final Kind[] TYPED = {Kind.SHORT, Kind.CHAR, Kind.INT, Kind.LONG, Kind.FLOAT, Kind.DOUBLE};

    /**
     * Few values move one by one and more through a typed view: both read and write native order
     * at the byte index given, whatever the buffer's own order and position, and touch nothing
     * else.
     */
    @Test
    void valuesInNativeOrderMoveAtTheirByteIndexWhateverTheBuffersOrderAndPosition() {
        ByteOrder foreign = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? ByteOrder.BIG_ENDIAN
            : ByteOrder.LITTLE_ENDIAN;
        for (Kind kind : TYPED) {
            for (int count : new int[] {1, 3, 16, 17, 40}) {
                int at = 3 * kind.size() + 1; // not aligned to the value's size
                ByteBuffer bytes = ByteBuffer.allocateDirect(at + count * kind.size() + 8).order(foreign);
                bytes.position(5);
                Object values = kind.newArray(count + 2);
                for (int i = 0; i < count + 2; i++) {
                    set(values, i, 1000 + 7 * i);
                }
                Values.putNative(bytes, at, kind, values, 1, count);
                assertEquals(5, bytes.position(), kind + " x " + count + ": the position stays");
                ByteBuffer expected = bytes.duplicate().order(ByteOrder.nativeOrder());
                for (int i = 0; i < count; i++) {
                    assertEquals(1000 + 7 * (i + 1), read(expected, kind, at + i * kind.size()),
                        kind + " x " + count + ", value " + i + " as written");
                }
                for (int b = 0; b < at; b++) {
                    assertEquals(0, bytes.get(b), kind + " x " + count + ": byte " + b + " before them untouched");
                }
                for (int b = at + count * kind.size(); b < bytes.capacity(); b++) {
                    assertEquals(0, bytes.get(b), kind + " x " + count + ": byte " + b + " after them untouched");
                }
                Object back = kind.newArray(count + 2);
                Values.getNative(bytes, at, kind, back, 2, count);
                for (int i = 0; i < count; i++) {
                    assertEquals(1000 + 7 * (i + 1), ((Number) number(back, i + 2)).longValue(),
                        kind + " x " + count + ", value " + i + " read back");
                }
                assertEquals(0, ((Number) number(back, 0)).longValue(), kind + ": nothing read before the offset");
            }
        }
    }

    private static void set(Object array, int i, int value) {
        if (array instanceof char[] c) {
            c[i] = (char) value;
        } else if (array instanceof short[] s) {
            s[i] = (short) value;
        } else if (array instanceof int[] a) {
            a[i] = value;
        } else if (array instanceof long[] l) {
            l[i] = value;
        } else if (array instanceof float[] f) {
            f[i] = value;
        } else {
            ((double[]) array)[i] = value;
        }
    }

    private static Object number(Object array, int i) {
        Object v = Array.get(array, i);
        return v instanceof Character c ? (int) c : v;
    }

    private static long read(ByteBuffer b, Kind kind, int at) {
        return switch (kind) {
            case SHORT -> b.getShort(at);
            case CHAR -> b.getChar(at);
            case INT -> b.getInt(at);
            case LONG -> b.getLong(at);
            case FLOAT -> (long) b.getFloat(at);
            default -> (long) b.getDouble(at);
        };
    }
}
