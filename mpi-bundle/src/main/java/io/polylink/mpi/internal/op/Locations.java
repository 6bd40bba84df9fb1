package io.polylink.mpi.internal.op;

import io.polylink.mpi.internal.datatype.Kind;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * {@code MINLOC} and {@code MAXLOC} on the pairs of a value and an {@code int} index whose kinds
 * differ ({@code SHORT_INT}, {@code LONG_INT}, {@code FLOAT_INT}, {@code DOUBLE_INT}): records of
 * the value then the index, packed in a byte array in native order. On equal values the lower
 * index wins, as MPI defines.
 */
final class Locations implements Kernel {

    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.nativeOrder());
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final VarHandle FLOAT = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.nativeOrder());
    private static final VarHandle DOUBLE = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.nativeOrder());

    private final Kind value;
    private final int record;
    private final boolean min;

    /** @param value the kind of the value before each index */
    Locations(Kind value, boolean min) {
        this.value = value;
        this.record = value.size() + Integer.BYTES;
        this.min = min;
    }

    @Override
    public void apply(Object in, int shift, Object inout, int from, int to) {
        byte[] a = (byte[]) in;
        byte[] b = (byte[]) inout;
        for (int r = from; r < to; r++) {
            int at = r * record;
            int atIn = (r + shift) * record;
            int order = compare(a, atIn, b, at);
            if (order == 0) {
                int index = value.size();
                INT.set(b, at + index, Math.min((int) INT.get(a, atIn + index), (int) INT.get(b, at + index)));
            } else if (order < 0 == min) {
                System.arraycopy(a, atIn, b, at, record);
            }
        }
    }

    /** @return how {@code a}'s value at {@code atA} compares to {@code b}'s at {@code atB} */
    private int compare(byte[] a, int atA, byte[] b, int atB) {
        return switch (value) {
            case SHORT -> Short.compare((short) SHORT.get(a, atA), (short) SHORT.get(b, atB));
            case LONG -> Long.compare((long) LONG.get(a, atA), (long) LONG.get(b, atB));
            case FLOAT -> compare((float) FLOAT.get(a, atA), (float) FLOAT.get(b, atB));
            case DOUBLE -> compare((double) DOUBLE.get(a, atA), (double) DOUBLE.get(b, atB));
            default -> Integer.compare((int) INT.get(a, atA), (int) INT.get(b, atB));
        };
    }

    /** Compares as {@code <} and {@code ==} do, so that +0 and -0 are equal values. */
    private static int compare(double x, double y) {
        return x < y ? -1 : x == y ? 0 : 1;
    }
}
