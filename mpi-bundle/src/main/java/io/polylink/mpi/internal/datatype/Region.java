package io.polylink.mpi.internal.datatype;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

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
     * @return the bytes of the direct buffer that holds this region's data from its element 0 on,
     *     values of {@code kind} in native order with no gaps, or {@code null} if it is not laid out
     *     so (an array, another layout, or a buffer whose bytes are not known)
     */
    public ByteBuffer denseBytes(Kind kind) {
        if (!map.isDense() || map.kind(0) != kind || map.lb() != 0 || map.size() * count > Integer.MAX_VALUE) {
            return null;
        }
        ByteBuffer bytes = memory.wireBytes(kind, 0, (int) (map.size() * count));
        // Wire bytes are native ones only where native order is the wire's; a byte has no order.
        return bytes == null || kind != Kind.BYTE && ByteOrder.nativeOrder() != WireWriter.ORDER ? null
            : bytes.order(ByteOrder.nativeOrder());
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
