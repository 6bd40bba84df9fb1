package io.polylink.mpi.internal.datatype;

/** The Java primitives data is made of, with their sizes in bytes. */
public enum Kind {
    BYTE(1), CHAR(2), SHORT(2), BOOLEAN(1), INT(4), LONG(8), FLOAT(4), DOUBLE(8);

    private static final Kind[] VALUES = values();

    private final int size;

    Kind(int size) {
        this.size = size;
    }

    /** @return bytes per element, in memory and on the wire */
    public int size() {
        return size;
    }

    static Kind of(int ordinal) {
        return VALUES[ordinal];
    }

    /** @return the Java name, as in {@code int[]} */
    public String javaName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
