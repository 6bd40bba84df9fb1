package io.polylink.mpi.internal.op;

import java.util.function.LongBinaryOperator;

/**
 * The loops of the predefined operations on arrays of one kind, the data packed: one loop per
 * operation and kind for the common arithmetic on {@code int}, {@code long}, {@code float} and
 * {@code double}, a shared one over {@code long} values for the rest of the integer operations.
 * {@code BYTE} and {@code CHAR} are unsigned, as in the Open MPI bindings; results wrap as C's
 * fixed-size integers do. Pairs ({@code INT2}, complex numbers) are adjacent primitives.
 */
final class Kernels {

    private Kernels() {}

    /** @return the loop of {@code op} on {@code element} packed in an array of its kind, or {@code null} if it does not apply */
    static Kernel of(Operator op, Element element) {
        return switch (element) {
            case DOUBLE -> doubles(op);
            case FLOAT -> floats(op);
            case INT -> op == Operator.SUM || op == Operator.PROD || op == Operator.MAX || op == Operator.MIN ? ints(op)
                : integer(element, op);
            case LONG -> op == Operator.SUM || op == Operator.PROD || op == Operator.MAX || op == Operator.MIN
                ? longs(op) : integer(element, op);
            case BYTE, CHAR, SHORT -> integer(element, op);
            case BOOLEAN -> booleans(op);
            case FLOAT_COMPLEX -> op == Operator.SUM ? floats(op) : op == Operator.PROD ? Kernels::floatComplexProduct
                : null;
            case DOUBLE_COMPLEX -> op == Operator.SUM ? doubles(op) : op == Operator.PROD
                ? Kernels::doubleComplexProduct : null;
            case INT2 -> op == Operator.MINLOC ? (in, shift, io, from, to) -> intLocation(in, shift, io, from, to, true)
                : op == Operator.MAXLOC ? (in, shift, io, from, to) -> intLocation(in, shift, io, from, to, false) : null;
            default -> null;
        };
    }

    private static Kernel doubles(Operator op) {
        return switch (op) {
            case SUM -> (in, shift, io, from, to) -> {
                double[] a = (double[]) in;
                double[] b = (double[]) io;
                for (int i = from; i < to; i++) {
                    b[i] += a[i + shift];
                }
            };
            case PROD -> (in, shift, io, from, to) -> {
                double[] a = (double[]) in;
                double[] b = (double[]) io;
                for (int i = from; i < to; i++) {
                    b[i] *= a[i + shift];
                }
            };
            case MAX -> (in, shift, io, from, to) -> {
                double[] a = (double[]) in;
                double[] b = (double[]) io;
                for (int i = from; i < to; i++) {
                    b[i] = Math.max(a[i + shift], b[i]);
                }
            };
            case MIN -> (in, shift, io, from, to) -> {
                double[] a = (double[]) in;
                double[] b = (double[]) io;
                for (int i = from; i < to; i++) {
                    b[i] = Math.min(a[i + shift], b[i]);
                }
            };
            default -> null;
        };
    }

    private static Kernel floats(Operator op) {
        return switch (op) {
            case SUM -> (in, shift, io, from, to) -> {
                float[] a = (float[]) in;
                float[] b = (float[]) io;
                for (int i = from; i < to; i++) {
                    b[i] += a[i + shift];
                }
            };
            case PROD -> (in, shift, io, from, to) -> {
                float[] a = (float[]) in;
                float[] b = (float[]) io;
                for (int i = from; i < to; i++) {
                    b[i] *= a[i + shift];
                }
            };
            case MAX -> (in, shift, io, from, to) -> {
                float[] a = (float[]) in;
                float[] b = (float[]) io;
                for (int i = from; i < to; i++) {
                    b[i] = Math.max(a[i + shift], b[i]);
                }
            };
            case MIN -> (in, shift, io, from, to) -> {
                float[] a = (float[]) in;
                float[] b = (float[]) io;
                for (int i = from; i < to; i++) {
                    b[i] = Math.min(a[i + shift], b[i]);
                }
            };
            default -> null;
        };
    }

    private static Kernel ints(Operator op) {
        return switch (op) {
            case SUM -> (in, shift, io, from, to) -> {
                int[] a = (int[]) in;
                int[] b = (int[]) io;
                for (int i = from; i < to; i++) {
                    b[i] += a[i + shift];
                }
            };
            case PROD -> (in, shift, io, from, to) -> {
                int[] a = (int[]) in;
                int[] b = (int[]) io;
                for (int i = from; i < to; i++) {
                    b[i] *= a[i + shift];
                }
            };
            case MAX -> (in, shift, io, from, to) -> {
                int[] a = (int[]) in;
                int[] b = (int[]) io;
                for (int i = from; i < to; i++) {
                    b[i] = Math.max(a[i + shift], b[i]);
                }
            };
            default -> (in, shift, io, from, to) -> {
                int[] a = (int[]) in;
                int[] b = (int[]) io;
                for (int i = from; i < to; i++) {
                    b[i] = Math.min(a[i + shift], b[i]);
                }
            };
        };
    }

    private static Kernel longs(Operator op) {
        return switch (op) {
            case SUM -> (in, shift, io, from, to) -> {
                long[] a = (long[]) in;
                long[] b = (long[]) io;
                for (int i = from; i < to; i++) {
                    b[i] += a[i + shift];
                }
            };
            case PROD -> (in, shift, io, from, to) -> {
                long[] a = (long[]) in;
                long[] b = (long[]) io;
                for (int i = from; i < to; i++) {
                    b[i] *= a[i + shift];
                }
            };
            case MAX -> (in, shift, io, from, to) -> {
                long[] a = (long[]) in;
                long[] b = (long[]) io;
                for (int i = from; i < to; i++) {
                    b[i] = Math.max(a[i + shift], b[i]);
                }
            };
            default -> (in, shift, io, from, to) -> {
                long[] a = (long[]) in;
                long[] b = (long[]) io;
                for (int i = from; i < to; i++) {
                    b[i] = Math.min(a[i + shift], b[i]);
                }
            };
        };
    }

    /** @return {@code op} on integers as {@code long} values, or {@code null} for one that does not apply to them */
    private static LongBinaryOperator arithmetic(Operator op) {
        return switch (op) {
            case SUM -> Long::sum;
            case PROD -> (a, b) -> a * b;
            case MAX -> Math::max;
            case MIN -> Math::min;
            case LAND -> (a, b) -> a != 0 && b != 0 ? 1 : 0;
            case LOR -> (a, b) -> a != 0 || b != 0 ? 1 : 0;
            case LXOR -> (a, b) -> (a != 0) != (b != 0) ? 1 : 0;
            case BAND -> (a, b) -> a & b;
            case BOR -> (a, b) -> a | b;
            case BXOR -> (a, b) -> a ^ b;
            default -> null;
        };
    }

    private static Kernel integer(Element element, Operator op) {
        LongBinaryOperator f = arithmetic(op);
        if (f == null) {
            return null;
        }
        return switch (element) {
            case BYTE -> (in, shift, io, from, to) -> {
                byte[] a = (byte[]) in;
                byte[] b = (byte[]) io;
                for (int i = from; i < to; i++) {
                    b[i] = (byte) f.applyAsLong(a[i + shift] & 0xFF, b[i] & 0xFF);
                }
            };
            case CHAR -> (in, shift, io, from, to) -> {
                char[] a = (char[]) in;
                char[] b = (char[]) io;
                for (int i = from; i < to; i++) {
                    b[i] = (char) f.applyAsLong(a[i + shift], b[i]);
                }
            };
            case SHORT -> (in, shift, io, from, to) -> {
                short[] a = (short[]) in;
                short[] b = (short[]) io;
                for (int i = from; i < to; i++) {
                    b[i] = (short) f.applyAsLong(a[i + shift], b[i]);
                }
            };
            case INT -> (in, shift, io, from, to) -> {
                int[] a = (int[]) in;
                int[] b = (int[]) io;
                for (int i = from; i < to; i++) {
                    b[i] = (int) f.applyAsLong(a[i + shift], b[i]);
                }
            };
            default -> (in, shift, io, from, to) -> {
                long[] a = (long[]) in;
                long[] b = (long[]) io;
                for (int i = from; i < to; i++) {
                    b[i] = f.applyAsLong(a[i + shift], b[i]);
                }
            };
        };
    }

    /** Booleans are 0 or 1: and, or and exclusive or are their logical and bitwise operations, and min and max. */
    private static Kernel booleans(Operator op) {
        return switch (op) {
            case LAND, BAND, MIN -> (in, shift, io, from, to) -> {
                boolean[] a = (boolean[]) in;
                boolean[] b = (boolean[]) io;
                for (int i = from; i < to; i++) {
                    b[i] &= a[i + shift];
                }
            };
            case LOR, BOR, MAX -> (in, shift, io, from, to) -> {
                boolean[] a = (boolean[]) in;
                boolean[] b = (boolean[]) io;
                for (int i = from; i < to; i++) {
                    b[i] |= a[i + shift];
                }
            };
            case LXOR, BXOR -> (in, shift, io, from, to) -> {
                boolean[] a = (boolean[]) in;
                boolean[] b = (boolean[]) io;
                for (int i = from; i < to; i++) {
                    b[i] ^= a[i + shift];
                }
            };
            default -> null;
        };
    }

    private static void floatComplexProduct(Object in, int shift, Object io, int from, int to) {
        float[] a = (float[]) in;
        float[] b = (float[]) io;
        for (int i = from; i < to; i += 2) {
            float re = a[i + shift] * b[i] - a[i + shift + 1] * b[i + 1];
            b[i + 1] = a[i + shift] * b[i + 1] + a[i + shift + 1] * b[i];
            b[i] = re;
        }
    }

    private static void doubleComplexProduct(Object in, int shift, Object io, int from, int to) {
        double[] a = (double[]) in;
        double[] b = (double[]) io;
        for (int i = from; i < to; i += 2) {
            double re = a[i + shift] * b[i] - a[i + shift + 1] * b[i + 1];
            b[i + 1] = a[i + shift] * b[i + 1] + a[i + shift + 1] * b[i];
            b[i] = re;
        }
    }

    /** MINLOC or MAXLOC on {@code INT2}: (value, index) pairs; on equal values the lower index wins. */
    private static void intLocation(Object in, int shift, Object io, int from, int to, boolean min) {
        int[] a = (int[]) in;
        int[] b = (int[]) io;
        for (int i = from; i < to; i += 2) {
            if (a[i + shift] == b[i]) {
                b[i + 1] = Math.min(a[i + shift + 1], b[i + 1]);
            } else if (a[i + shift] < b[i] == min) {
                b[i] = a[i + shift];
                b[i + 1] = a[i + shift + 1];
            }
        }
    }
}
