package mpi;

/** Reads and writes {@link MPI#SHORT_INT} data ({@code struct { short; int; }}) in byte buffers: {@link MPI#shortInt}. */
public final class ShortInt extends Struct {

    private final int indexOffset;

    /**
     * @param shortSize the value's size in bytes
     * @param intOff the index's offset in bytes
     * @param intSize the index's size in bytes
     * @throws IllegalArgumentException for sizes other than Java's
     */
    protected ShortInt(int shortSize, int intOff, int intSize) {
        if (shortSize != 2) {
            throw new IllegalArgumentException("shortSize " + shortSize + ": Java's is 2");
        }
        if (intSize != 4) {
            throw new IllegalArgumentException("intSize " + intSize + ": Java's is 4");
        }
        addShort();
        setOffset(intOff);
        indexOffset = addInt();
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One short with its index. */
    public final class Data extends Struct.Data {

        /** @return the value */
        public short getValue() {
            return getShort(0);
        }

        /** @return the index */
        public int getIndex() {
            return getInt(indexOffset);
        }

        /** @param v the value */
        public void putValue(short v) {
            putShort(0, v);
        }

        /** @param v the index */
        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
