package io.polylink.mpi.internal.datatype;

/**
 * A primitive array other than {@code byte[]}, or a heap buffer's: holds only its own kind, at
 * byte offsets that are multiples of the element size. Floats and doubles travel as their raw
 * bits, so every value, NaNs included, arrives as it was.
 */
final class ArrayMemory implements Memory {

    private final Object array;
    private final Kind kind;
    private final int length;
    private final int base;

    /** @param base the element the buffer starts at */
    ArrayMemory(Object array, Kind kind, int length, int base) {
        this.array = array;
        this.kind = kind;
        this.length = length;
        this.base = base;
    }

    /** @return this memory from {@code elements} further in */
    ArrayMemory from(int elements) {
        return new ArrayMemory(array, kind, length, base + elements);
    }

    Object array() {
        return array;
    }

    Kind kind() {
        return kind;
    }

    int base() {
        return base;
    }

    @Override
    public long capacity() {
        return (long) (length - base) * kind.size();
    }

    @Override
    public boolean holds(Kind k) {
        return k == kind;
    }

    @Override
    public int granularity() {
        return kind.size();
    }

    @Override
    public void write(WireWriter out, Kind k, long at, int n) {
        int p = base + (int) (at / kind.size());
        switch (kind) {
            case BOOLEAN -> {
                boolean[] a = (boolean[]) array;
                for (int i = 0; i < n; i++) {
                    out.putByte(a[p + i] ? (byte) 1 : 0);
                }
            }
            case CHAR -> {
                char[] a = (char[]) array;
                for (int i = 0; i < n; i++) {
                    out.putShort((short) a[p + i]);
                }
            }
            case SHORT -> {
                short[] a = (short[]) array;
                for (int i = 0; i < n; i++) {
                    out.putShort(a[p + i]);
                }
            }
            case INT -> {
                int[] a = (int[]) array;
                for (int i = 0; i < n; i++) {
                    out.putInt(a[p + i]);
                }
            }
            case LONG -> {
                long[] a = (long[]) array;
                for (int i = 0; i < n; i++) {
                    out.putLong(a[p + i]);
                }
            }
            case FLOAT -> {
                float[] a = (float[]) array;
                for (int i = 0; i < n; i++) {
                    out.putInt(Float.floatToRawIntBits(a[p + i]));
                }
            }
            case DOUBLE -> {
                double[] a = (double[]) array;
                for (int i = 0; i < n; i++) {
                    out.putLong(Double.doubleToRawLongBits(a[p + i]));
                }
            }
            case BYTE -> throw new IllegalStateException("byte arrays are ByteArrayMemory");
        }
    }

    @Override
    public void read(WireReader in, Kind k, long at, int n) {
        int p = base + (int) (at / kind.size());
        switch (kind) {
            case BOOLEAN -> {
                boolean[] a = (boolean[]) array;
                for (int i = 0; i < n; i++) {
                    a[p + i] = in.getByte() != 0;
                }
            }
            case CHAR -> {
                char[] a = (char[]) array;
                for (int i = 0; i < n; i++) {
                    a[p + i] = (char) in.getShort();
                }
            }
            case SHORT -> {
                short[] a = (short[]) array;
                for (int i = 0; i < n; i++) {
                    a[p + i] = in.getShort();
                }
            }
            case INT -> {
                int[] a = (int[]) array;
                for (int i = 0; i < n; i++) {
                    a[p + i] = in.getInt();
                }
            }
            case LONG -> {
                long[] a = (long[]) array;
                for (int i = 0; i < n; i++) {
                    a[p + i] = in.getLong();
                }
            }
            case FLOAT -> {
                float[] a = (float[]) array;
                for (int i = 0; i < n; i++) {
                    a[p + i] = Float.intBitsToFloat(in.getInt());
                }
            }
            case DOUBLE -> {
                double[] a = (double[]) array;
                for (int i = 0; i < n; i++) {
                    a[p + i] = Double.longBitsToDouble(in.getLong());
                }
            }
            case BYTE -> throw new IllegalStateException("byte arrays are ByteArrayMemory");
        }
    }

    @Override
    public String describe() {
        String name = kind.javaName() + "[" + length + "]";
        return base == 0 ? name : name + " from " + base;
    }
}
