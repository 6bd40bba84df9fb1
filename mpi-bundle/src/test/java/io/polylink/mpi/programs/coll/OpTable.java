package io.polylink.mpi.programs.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Set;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;

/**
 * Every predefined operation on every basic, pair and complex type: where MPI's table defines it,
 * an allreduce of three elements equals the same reduction computed here in rank order; where it
 * does not, the call fails with {@code MPI.ERR_OP}. As in the Open MPI bindings, {@code BYTE} and
 * {@code CHAR} are unsigned integers and {@code BOOLEAN} takes logical, bitwise, min and max.
 */
final class OpTable {

    private static final int COUNT = 3;

    private record Type(String name, Datatype type, Set<String> ops) {}

    private static final Set<String> INTEGER = Set.of("MAX", "MIN", "SUM", "PROD", "LAND", "BAND", "LOR", "BOR",
        "LXOR", "BXOR");
    private static final Set<String> REAL = Set.of("MAX", "MIN", "SUM", "PROD");
    private static final Set<String> LOGICAL = Set.of("MAX", "MIN", "LAND", "BAND", "LOR", "BOR", "LXOR", "BXOR");
    private static final Set<String> COMPLEX = Set.of("SUM", "PROD");
    private static final Set<String> LOCATION = Set.of("MINLOC", "MAXLOC");

    private final Intracomm c;
    private final int n;
    private final int me;

    /** @param world the ranks; the table runs on a duplicate whose errors return, so that refused calls throw */
    OpTable(Intracomm world) throws MPIException {
        this.c = world.dup();
        c.setErrhandler(MPI.ERRORS_RETURN);
        this.n = c.getSize();
        this.me = c.getRank();
    }

    void run() throws MPIException {
        List<Type> types = List.of(new Type("BYTE", MPI.BYTE, INTEGER), new Type("CHAR", MPI.CHAR, INTEGER),
            new Type("SHORT", MPI.SHORT, INTEGER), new Type("INT", MPI.INT, INTEGER), new Type("LONG", MPI.LONG, INTEGER),
            new Type("BOOLEAN", MPI.BOOLEAN, LOGICAL), new Type("FLOAT", MPI.FLOAT, REAL),
            new Type("DOUBLE", MPI.DOUBLE, REAL), new Type("FLOAT_COMPLEX", MPI.FLOAT_COMPLEX, COMPLEX),
            new Type("DOUBLE_COMPLEX", MPI.DOUBLE_COMPLEX, COMPLEX), new Type("INT2", MPI.INT2, LOCATION),
            new Type("SHORT_INT", MPI.SHORT_INT, LOCATION), new Type("LONG_INT", MPI.LONG_INT, LOCATION),
            new Type("FLOAT_INT", MPI.FLOAT_INT, LOCATION), new Type("DOUBLE_INT", MPI.DOUBLE_INT, LOCATION));
        List<String> ops = List.of("MAX", "MIN", "SUM", "PROD", "LAND", "BAND", "LOR", "BOR", "LXOR", "BXOR",
            "MINLOC", "MAXLOC");
        int salt = 9_000;
        for (Type t : types) {
            for (String op : ops) {
                salt++;
                Op o = op(op);
                if (t.ops().contains(op)) {
                    Object send = buffer(t.name(), me, salt);
                    Object recv = buffer(t.name(), 0, 0);
                    c.allReduce(send, recv, COUNT, t.type(), o);
                    Object expected = buffer(t.name(), 0, salt);
                    for (int r = 1; r < n; r++) {
                        combine(t.name(), op, buffer(t.name(), r, salt), expected);
                    }
                    assertEquals(text(t.name(), expected), text(t.name(), recv), "MPI." + op + " on MPI." + t.name());
                } else {
                    try {
                        c.allReduce(buffer(t.name(), me, salt), buffer(t.name(), 0, 0), COUNT, t.type(), o);
                        fail("MPI." + op + " on MPI." + t.name() + " should fail with ERR_OP");
                    } catch (MPIException e) {
                        assertEquals(MPI.ERR_OP, e.getErrorClass(), "MPI." + op + " on MPI." + t.name() + ": " + e);
                    }
                }
            }
        }
        c.free();
    }

    private static Op op(String name) {
        return switch (name) {
            case "MAX" -> MPI.MAX;
            case "MIN" -> MPI.MIN;
            case "SUM" -> MPI.SUM;
            case "PROD" -> MPI.PROD;
            case "LAND" -> MPI.LAND;
            case "BAND" -> MPI.BAND;
            case "LOR" -> MPI.LOR;
            case "BOR" -> MPI.BOR;
            case "LXOR" -> MPI.LXOR;
            case "BXOR" -> MPI.BXOR;
            case "MINLOC" -> MPI.MINLOC;
            default -> MPI.MAXLOC;
        };
    }

    /** Small values, repeating across ranks, so sums and products stay exact and locations tie. */
    private static int small(int rank, int salt, int i) {
        return Math.floorMod(Data.value(rank, salt, i), 7) - 3;
    }

    /** Bytes of a pair of a value of {@code valueSize} bytes and an int: the value, then the int where C puts it. */
    private static int extent(int valueSize) {
        return valueSize <= 4 ? 8 : 16;
    }

    private static int valueSize(String type) {
        return switch (type) {
            case "SHORT_INT" -> 2;
            case "FLOAT_INT" -> 4;
            default -> 8;
        };
    }

    /** @return rank {@code rank}'s three elements of {@code type} in call {@code salt}; zeros for salt 0 */
    private static Object buffer(String type, int rank, int salt) {
        switch (type) {
            case "BYTE" -> {
                byte[] b = new byte[COUNT];
                for (int i = 0; i < COUNT; i++) {
                    b[i] = salt == 0 ? 0 : (byte) (small(rank, salt, i) * 37);
                }
                return b;
            }
            case "CHAR" -> {
                char[] b = new char[COUNT];
                for (int i = 0; i < COUNT; i++) {
                    b[i] = salt == 0 ? 0 : (char) (small(rank, salt, i) * 9_001);
                }
                return b;
            }
            case "SHORT" -> {
                short[] b = new short[COUNT];
                for (int i = 0; i < COUNT; i++) {
                    b[i] = salt == 0 ? 0 : (short) (small(rank, salt, i) * 3_001);
                }
                return b;
            }
            case "INT" -> {
                int[] b = new int[COUNT];
                for (int i = 0; i < COUNT; i++) {
                    b[i] = salt == 0 ? 0 : small(rank, salt, i) * 100_003;
                }
                return b;
            }
            case "LONG" -> {
                long[] b = new long[COUNT];
                for (int i = 0; i < COUNT; i++) {
                    b[i] = salt == 0 ? 0 : small(rank, salt, i) * 10_000_000_019L;
                }
                return b;
            }
            case "BOOLEAN" -> {
                boolean[] b = new boolean[COUNT];
                for (int i = 0; i < COUNT; i++) {
                    b[i] = salt != 0 && small(rank, salt, i) > -2;
                }
                return b;
            }
            case "FLOAT", "FLOAT_COMPLEX" -> {
                int k = type.equals("FLOAT") ? COUNT : 2 * COUNT;
                float[] b = new float[k];
                for (int i = 0; i < k; i++) {
                    b[i] = salt == 0 ? 0 : small(rank, salt, i);
                }
                return b;
            }
            case "DOUBLE", "DOUBLE_COMPLEX" -> {
                int k = type.equals("DOUBLE") ? COUNT : 2 * COUNT;
                double[] b = new double[k];
                for (int i = 0; i < k; i++) {
                    b[i] = salt == 0 ? 0 : small(rank, salt, i) * 0.5;
                }
                return b;
            }
            case "INT2" -> {
                int[] b = new int[2 * COUNT];
                for (int i = 0; i < COUNT; i++) {
                    b[2 * i] = salt == 0 ? 0 : small(rank, salt, i);
                    b[2 * i + 1] = salt == 0 ? 0 : rank * 10 + i;
                }
                return b;
            }
            default -> {
                int size = valueSize(type);
                int extent = extent(size);
                ByteBuffer b = ByteBuffer.allocate(COUNT * extent).order(ByteOrder.nativeOrder());
                for (int i = 0; i < COUNT; i++) {
                    int v = salt == 0 ? 0 : small(rank, salt, i);
                    switch (type) {
                        case "SHORT_INT" -> b.putShort(i * extent, (short) v);
                        case "LONG_INT" -> b.putLong(i * extent, v);
                        case "FLOAT_INT" -> b.putFloat(i * extent, v);
                        default -> b.putDouble(i * extent, v);
                    }
                    b.putInt(i * extent + Math.max(size, 4), salt == 0 ? 0 : rank * 10 + i);
                }
                return b.array();
            }
        }
    }

    /** {@code inout = in op inout}, element by element, as MPI defines {@code op} on {@code type}. */
    private static void combine(String type, String op, Object in, Object inout) {
        switch (type) {
            case "BYTE" -> {
                byte[] a = (byte[]) in;
                byte[] b = (byte[]) inout;
                for (int i = 0; i < COUNT; i++) {
                    b[i] = (byte) integer(op, a[i] & 0xFF, b[i] & 0xFF);
                }
            }
            case "CHAR" -> {
                char[] a = (char[]) in;
                char[] b = (char[]) inout;
                for (int i = 0; i < COUNT; i++) {
                    b[i] = (char) integer(op, a[i], b[i]);
                }
            }
            case "SHORT" -> {
                short[] a = (short[]) in;
                short[] b = (short[]) inout;
                for (int i = 0; i < COUNT; i++) {
                    b[i] = (short) integer(op, a[i], b[i]);
                }
            }
            case "INT" -> {
                int[] a = (int[]) in;
                int[] b = (int[]) inout;
                for (int i = 0; i < COUNT; i++) {
                    b[i] = (int) integer(op, a[i], b[i]);
                }
            }
            case "LONG" -> {
                long[] a = (long[]) in;
                long[] b = (long[]) inout;
                for (int i = 0; i < COUNT; i++) {
                    b[i] = integer(op, a[i], b[i]);
                }
            }
            case "BOOLEAN" -> {
                boolean[] a = (boolean[]) in;
                boolean[] b = (boolean[]) inout;
                for (int i = 0; i < COUNT; i++) {
                    b[i] = integer(op, a[i] ? 1 : 0, b[i] ? 1 : 0) != 0;
                }
            }
            case "FLOAT" -> {
                float[] a = (float[]) in;
                float[] b = (float[]) inout;
                for (int i = 0; i < COUNT; i++) {
                    b[i] = (float) real(op, a[i], b[i]);
                }
            }
            case "DOUBLE" -> {
                double[] a = (double[]) in;
                double[] b = (double[]) inout;
                for (int i = 0; i < COUNT; i++) {
                    b[i] = real(op, a[i], b[i]);
                }
            }
            case "FLOAT_COMPLEX" -> {
                float[] a = (float[]) in;
                float[] b = (float[]) inout;
                for (int i = 0; i < 2 * COUNT; i += 2) {
                    double[] z = complex(op, a[i], a[i + 1], b[i], b[i + 1]);
                    b[i] = (float) z[0];
                    b[i + 1] = (float) z[1];
                }
            }
            case "DOUBLE_COMPLEX" -> {
                double[] a = (double[]) in;
                double[] b = (double[]) inout;
                for (int i = 0; i < 2 * COUNT; i += 2) {
                    double[] z = complex(op, a[i], a[i + 1], b[i], b[i + 1]);
                    b[i] = z[0];
                    b[i + 1] = z[1];
                }
            }
            case "INT2" -> {
                int[] a = (int[]) in;
                int[] b = (int[]) inout;
                for (int i = 0; i < 2 * COUNT; i += 2) {
                    if (location(op, a[i], a[i + 1], b[i], b[i + 1])) {
                        b[i] = a[i];
                        b[i + 1] = a[i + 1];
                    }
                }
            }
            default -> {
                int size = valueSize(type);
                int extent = extent(size);
                ByteBuffer a = ByteBuffer.wrap((byte[]) in).order(ByteOrder.nativeOrder());
                ByteBuffer b = ByteBuffer.wrap((byte[]) inout).order(ByteOrder.nativeOrder());
                for (int i = 0; i < COUNT; i++) {
                    int at = i * extent;
                    int index = at + Math.max(size, 4);
                    double x = pairValue(type, a, at);
                    double y = pairValue(type, b, at);
                    if (location(op, x, a.getInt(index), y, b.getInt(index))) {
                        b.put(at, a.array(), at, extent);
                    }
                }
            }
        }
    }

    private static double pairValue(String type, ByteBuffer b, int at) {
        return switch (type) {
            case "SHORT_INT" -> b.getShort(at);
            case "LONG_INT" -> b.getLong(at);
            case "FLOAT_INT" -> b.getFloat(at);
            default -> b.getDouble(at);
        };
    }

    /** @return whether MINLOC or MAXLOC takes the pair {@code (x, i)} over {@code (y, j)} */
    private static boolean location(String op, double x, int i, double y, int j) {
        if (x == y) {
            return i < j;
        }
        return op.equals("MINLOC") ? x < y : x > y;
    }

    private static long integer(String op, long a, long b) {
        return switch (op) {
            case "MAX" -> Math.max(a, b);
            case "MIN" -> Math.min(a, b);
            case "SUM" -> a + b;
            case "PROD" -> a * b;
            case "LAND" -> a != 0 && b != 0 ? 1 : 0;
            case "LOR" -> a != 0 || b != 0 ? 1 : 0;
            case "LXOR" -> (a != 0) ^ (b != 0) ? 1 : 0;
            case "BAND" -> a & b;
            case "BOR" -> a | b;
            default -> a ^ b;
        };
    }

    private static double real(String op, double a, double b) {
        return switch (op) {
            case "MAX" -> Math.max(a, b);
            case "MIN" -> Math.min(a, b);
            case "SUM" -> a + b;
            default -> a * b;
        };
    }

    private static double[] complex(String op, double re1, double im1, double re2, double im2) {
        return op.equals("SUM") ? new double[] {re1 + re2, im1 + im2}
            : new double[] {re1 * re2 - im1 * im2, re1 * im2 + im1 * re2};
    }

    private static String text(String type, Object buffer) {
        if (buffer instanceof char[] b) {
            return java.util.Arrays.toString(new String(b).chars().toArray());
        } else if (buffer instanceof short[] b) {
            return java.util.Arrays.toString(b);
        } else if (buffer instanceof int[] b) {
            return java.util.Arrays.toString(b);
        } else if (buffer instanceof long[] b) {
            return java.util.Arrays.toString(b);
        } else if (buffer instanceof boolean[] b) {
            return java.util.Arrays.toString(b);
        } else if (buffer instanceof float[] b) {
            return java.util.Arrays.toString(b);
        } else if (buffer instanceof double[] b) {
            return java.util.Arrays.toString(b);
        }
        return type + " " + java.util.Arrays.toString((byte[]) buffer);
    }
}
