package mpi;

/** Reads and writes {@link MPI#LONG_INT} data ({@code struct { long; int; }}) in byte buffers: {@link MPI#longInt}. */
public final class LongInt extends Struct {

    private final int indexOffset;

    /**
     * @param longSize the value's size in bytes
     * @param intOff the index's offset in bytes
     * @param intSize the index's size in bytes
     * @throws IllegalArgumentException for sizes other than Java's
     */
    protected LongInt(int longSize, int intOff, int intSize) {
        if (longSize != 8) {
            throw new IllegalArgumentException("longSize " + longSize + ": Java's is 8");
        }
        if (intSize != 4) {
            throw new IllegalArgumentException("intSize " + intSize + ": Java's is 4");
        }
        addLong();
        setOffset(intOff);
        indexOffset = addInt();
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One long with its index. */
    public final class Data extends Struct.Data {

        /** @return the value */
        public long getValue() {
            return getLong(0);
        }

        /** @return the index */
        public int getIndex() {
            return getInt(indexOffset);
        }

        /** @param v the value */
        public void putValue(long v) {
            putLong(0, v);
        }

        /** @param v the index */
        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
