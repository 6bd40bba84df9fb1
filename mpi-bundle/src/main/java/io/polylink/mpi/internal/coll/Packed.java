package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.Kind;
import io.polylink.mpi.internal.datatype.Memories;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;

/**
 * Bytes of data packed as the wire carries it, in a buffer of a collective's own: what a rank
 * keeps of other ranks' blocks while it passes them on (a binomial gather's subtree, Bruck's
 * rotated blocks). Sent and received as bytes, the data stays in the wire's format, so a packed
 * block unpacks into any datatype of the same signature.
 */
final class Packed {

    private static final Typemap BYTES = Typemap.basic(Kind.BYTE);

    private final Region all;
    private final long block;

    /** @param block bytes per block */
    Packed(int blocks, long block) {
        long bytes = blocks * block;
        if (bytes > Integer.MAX_VALUE - 8) {
            throw new MpiError(ErrorClass.ERR_COUNT, blocks + " blocks of " + block + " bytes are too many for one "
                + "buffer: use fewer or smaller blocks");
        }
        this.all = new Region(Memories.ofBytes(new byte[(int) bytes], 0), BYTES, bytes);
        this.block = block;
    }

    /** @return blocks {@code first} to {@code first + n - 1} */
    Region blocks(int first, int n) {
        return all.slice(first * block, n * block);
    }

    /** @return block {@code i} */
    Region block(int i) {
        return blocks(i, 1);
    }
}
