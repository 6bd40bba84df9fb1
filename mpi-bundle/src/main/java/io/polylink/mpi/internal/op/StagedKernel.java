package io.polylink.mpi.internal.op;

import io.polylink.mpi.internal.datatype.Kind;
import io.polylink.mpi.internal.datatype.Values;
import java.nio.ByteBuffer;

/**
 * A kernel that combines in direct memory too: where an operand is a byte buffer (the values of a
 * direct buffer, in native order), its values are staged a few thousand at a time in arrays of
 * their kind, small enough to stay in the core's first-level cache, combined there by the array
 * kernel, and written back. Arrays go straight to the array kernel.
 */
final class StagedKernel implements Kernel {

    private static final int STAGE_BYTES = 8 * 1024;

    private final Kernel kernel;
    private final Kind kind;

    StagedKernel(Kernel kernel, Kind kind) {
        this.kernel = kernel;
        this.kind = kind;
    }

    @Override
    public void apply(Object in, int shift, Object inout, int from, int to) {
        boolean bufferIn = in instanceof ByteBuffer;
        boolean bufferOut = inout instanceof ByteBuffer;
        if (!bufferIn && !bufferOut) {
            kernel.apply(in, shift, inout, from, to);
            return;
        }
        int per = Math.min(STAGE_BYTES / kind.size(), to - from);
        // Stages of their own: one kernel serves every thread that reduces with its operation.
        Object a = bufferIn ? kind.newArray(per) : null;
        Object b = bufferOut ? kind.newArray(per) : null;
        for (int c = from; c < to; c += per) {
            int m = Math.min(per, to - c);
            if (bufferIn) {
                load((ByteBuffer) in, kind, c + shift, a, 0, m); // a[k] is in[c + shift + k]
            }
            if (bufferOut) {
                load((ByteBuffer) inout, kind, c, b, 0, m); // b[k] is inout[c + k]
                kernel.apply(bufferIn ? a : in, bufferIn ? 0 : c + shift, b, 0, m);
                store(b, (ByteBuffer) inout, kind, c, m);
            } else {
                kernel.apply(a, -c, inout, c, c + m);
            }
        }
    }

    /**
     * Copies values {@code index} to {@code index + n - 1} of {@code buffer} (native order) to
     * {@code array} from {@code at}.
     */
    static void load(ByteBuffer buffer, Kind kind, int index, Object array, int at, int n) {
        Values.getNative(buffer, index * kind.size(), kind, array, at, n);
    }

    /** Copies {@code array}'s first {@code n} values to values {@code index} on of {@code buffer} (native order). */
    static void store(Object array, ByteBuffer buffer, Kind kind, int index, int n) {
        Values.putNative(buffer, index * kind.size(), kind, array, 0, n);
    }
}
