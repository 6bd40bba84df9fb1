package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.Kind;
import io.polylink.mpi.internal.datatype.Memories;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import java.util.Arrays;

/**
 * Bytes of data packed as the wire carries it, in a buffer of a collective's own: what a rank
 * keeps of other ranks' blocks while it passes them on (a binomial gather's subtree, Bruck's
 * rotated blocks, a host's blocks at its leader), one block after the other. Sent and received as bytes, the data stays in the wire's format, so a packed
 * block unpacks into any datatype of the same signature.
 */
final class Packed {

    private static final Typemap BYTES = Typemap.basic(Kind.BYTE);

    private final Region all;
    /** Where each block starts, and after the last where the buffer ends. */
    private final long[] offsets;

    /** @param block bytes per block */
    Packed(int blocks, long block) {
        this(uniform(blocks, block));
    }

    /** @param sizes bytes of each block */
    Packed(long[] sizes) {
        offsets = new long[sizes.length + 1];
        for (int i = 0; i < sizes.length; i++) {
            offsets[i + 1] = offsets[i] + sizes[i];
        }
        long bytes = offsets[sizes.length];
        if (bytes > Integer.MAX_VALUE - 8) {
            throw new MpiError(ErrorClass.ERR_COUNT, sizes.length + " blocks of " + bytes + " bytes in all are too "
                + "many for one buffer: use fewer or smaller blocks");
        }
        this.all = new Region(Memories.ofBytes(new byte[(int) bytes], 0), BYTES, bytes);
    }

    private static long[] uniform(int blocks, long block) {
        long[] sizes = new long[blocks];
        Arrays.fill(sizes, block);
        return sizes;
    }

    /** @return blocks {@code first} to {@code first + n - 1} */
    Region blocks(int first, int n) {
        return all.slice(offsets[first], offsets[first + n] - offsets[first]);
    }

    /** @return block {@code i} */
    Region block(int i) {
        return blocks(i, 1);
    }

    /** @return every block */
    Region all() {
        return all;
    }
}
