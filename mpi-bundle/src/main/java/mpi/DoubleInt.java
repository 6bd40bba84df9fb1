package mpi;

/** Reads and writes {@link MPI#DOUBLE_INT} data ({@code struct { double; int; }}) in byte buffers: {@link MPI#doubleInt}. */
public final class DoubleInt extends Struct {

    private final int indexOffset;

    /**
     * @param intOff the index's offset in bytes
     * @param intSize the index's size in bytes
     * @throws IllegalArgumentException for sizes other than Java's
     */
    protected DoubleInt(int intOff, int intSize) {
        if (intSize != 4) {
            throw new IllegalArgumentException("intSize " + intSize + ": Java's is 4");
        }
        addDouble();
        setOffset(intOff);
        indexOffset = addInt();
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One double with its index. */
    public final class Data extends Struct.Data {

        /** @return the value */
        public double getValue() {
            return getDouble(0);
        }

        /** @return the index */
        public int getIndex() {
            return getInt(indexOffset);
        }

        /** @param v the value */
        public void putValue(double v) {
            putDouble(0, v);
        }

        /** @param v the index */
        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
