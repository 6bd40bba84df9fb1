package mpi;

/** Reads and writes {@link MPI#INT2} data ({@code struct { int; int; }}) in byte buffers: {@link MPI#int2}. */
public final class Int2 extends Struct {

    private final int indexOffset;

    /**
     * @param intOff the index's offset in bytes
     * @param intSize the index's size in bytes
     * @throws IllegalArgumentException for sizes other than Java's
     */
    protected Int2(int intOff, int intSize) {
        if (intSize != 4) {
            throw new IllegalArgumentException("intSize " + intSize + ": Java's is 4");
        }
        addInt();
        setOffset(intOff);
        indexOffset = addInt();
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One int with its index. */
    public final class Data extends Struct.Data {

        /** @return the value */
        public int getValue() {
            return getInt(0);
        }

        /** @return the index */
        public int getIndex() {
            return getInt(indexOffset);
        }

        /** @param v the value */
        public void putValue(int v) {
            putInt(0, v);
        }

        /** @param v the index */
        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
