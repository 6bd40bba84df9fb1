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

    /** @return a new array of {@code length} elements of this kind */
    public Object newArray(int length) {
        return switch (this) {
            case BYTE -> new byte[length];
            case CHAR -> new char[length];
            case SHORT -> new short[length];
            case BOOLEAN -> new boolean[length];
            case INT -> new int[length];
            case LONG -> new long[length];
            case FLOAT -> new float[length];
            case DOUBLE -> new double[length];
        };
    }

    /** @return the Java name, as in {@code int[]} */
    public String javaName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
