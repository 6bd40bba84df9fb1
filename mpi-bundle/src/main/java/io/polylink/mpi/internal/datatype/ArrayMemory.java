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
        if (kind == Kind.BOOLEAN) {
            boolean[] a = (boolean[]) array;
            for (int i = 0; i < n; i++) {
                out.putByte(a[p + i] ? (byte) 1 : 0);
            }
        } else if (kind == Kind.BYTE) {
            throw new IllegalStateException("byte arrays are ByteArrayMemory");
        } else {
            out.putValues(kind, array, p, n);
        }
    }

    @Override
    public void read(WireReader in, Kind k, long at, int n) {
        int p = base + (int) (at / kind.size());
        if (kind == Kind.BOOLEAN) {
            boolean[] a = (boolean[]) array;
            for (int i = 0; i < n; i++) {
                a[p + i] = in.getByte() != 0;
            }
        } else if (kind == Kind.BYTE) {
            throw new IllegalStateException("byte arrays are ByteArrayMemory");
        } else {
            in.getValues(kind, array, p, n);
        }
    }

    @Override
    public String describe() {
        String name = kind.javaName() + "[" + length + "]";
        return base == 0 ? name : name + " from " + base;
    }
}
