package io.polylink.mpi.internal.datatype;

/**
 * {@code count} copies of a typemap laid over a memory from its start: the data of one send or
 * receive, or of one part of a collective's buffer.
 *
 * @param memory where the data is; {@code null} only when the region holds no data
 * @param map the layout of one copy
 * @param count copies
 */
public record Region(Memory memory, Typemap map, long count) {

    /** @return the bytes the region's data takes on the wire */
    public long bytes() {
        return map.size() * count;
    }

    /**
     * @param first the first copy, from 0
     * @param copies how many
     * @return the copies {@code first} to {@code first + copies - 1} of this region
     */
    public Region slice(long first, long copies) {
        if (first == 0) {
            return copies == count ? this : new Region(memory, map, copies);
        }
        return new Region(Memories.shifted(memory, first * map.extent()), map, copies);
    }

    /**
     * @return the Java array of {@code kind} that holds this region's data from its element 0 on,
     *     with no gaps, or {@code null} if it is not laid out so
     */
    public Object denseArray(Kind kind) {
        if (memory instanceof ArrayMemory a && a.kind() == kind && a.base() == 0 && map.isDense() && map.lb() == 0
                && map.kind(0) == kind) {
            return a.array();
        }
        return null;
    }

    /**
     * Checks that the region lies in its memory and the memory holds its kinds.
     *
     * @param what the buffer's role, for the error
     * @return this
     * @throws io.polylink.mpi.internal.MpiError as {@link Memories#check} does
     */
    public Region check(String what) {
        Memories.check(memory, map, count, what);
        return this;
    }
}
