package mpi;

/** Reads and writes {@link MPI#FLOAT_INT} data ({@code struct { float; int; }}) in byte buffers: {@link MPI#floatInt}. */
public final class FloatInt extends Struct {

    private final int indexOffset;

    /**
     * @param intOff the index's offset in bytes
     * @param intSize the index's size in bytes
     * @throws IllegalArgumentException for sizes other than Java's
     */
    protected FloatInt(int intOff, int intSize) {
        if (intSize != 4) {
            throw new IllegalArgumentException("intSize " + intSize + ": Java's is 4");
        }
        addFloat();
        setOffset(intOff);
        indexOffset = addInt();
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One float with its index. */
    public final class Data extends Struct.Data {

        /** @return the value */
        public float getValue() {
            return getFloat(0);
        }

        /** @return the index */
        public int getIndex() {
            return getInt(indexOffset);
        }

        /** @param v the value */
        public void putValue(float v) {
            putFloat(0, v);
        }

        /** @param v the index */
        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
