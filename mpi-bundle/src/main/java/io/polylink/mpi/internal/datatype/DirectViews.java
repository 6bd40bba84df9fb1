package io.polylink.mpi.internal.datatype;

import io.polylink.mpi.internal.WeakIdentityTable;
import java.nio.Buffer;
import java.nio.ByteBuffer;

/**
 * The direct buffers {@code MPI.newCharBuffer} to {@code MPI.newDoubleBuffer} and {@code MPI.slice}
 * made, with the byte buffer each lies in and where: Java gives no way from a {@code DoubleBuffer}
 * to its bytes, and without them its values move one by one where bytes move in bulk.
 */
public final class DirectViews {

    /** The bytes a view lies in: {@code base} from byte {@code offset} on. */
    record Bytes(ByteBuffer base, long offset) {}

    private static final WeakIdentityTable<Bytes> VIEWS = new WeakIdentityTable<>();
    /**
     * Whether any view was remembered: until then a buffer is looked up with no lock taken and
     * nothing allocated, as every message of a program that makes no typed buffers and no slices.
     */
    private static volatile boolean any;

    private DirectViews() {}

    /**
     * Remembers that {@code view} lies in {@code of} from byte {@code offset} on, while {@code view}
     * lives, if {@code of} is direct: a byte buffer, or a view or slice remembered before (then in
     * the bytes that one lies in, so a slice of a slice still finds its shared buffer).
     *
     * @return {@code view}
     */
    public static <B extends Buffer> B remember(B view, Buffer of, long offset) {
        if (!of.isDirect()) {
            return view;
        }
        VIEWS.expunge(gone -> { });
        Bytes under = VIEWS.get(of);
        if (under == null && of instanceof ByteBuffer b) {
            under = new Bytes(b, 0);
        }
        if (under != null) {
            VIEWS.put(view, new Bytes(under.base(), under.offset() + offset));
            any = true;
        }
        return view;
    }

    /** @return the bytes {@code view} lies in, if it was remembered; else {@code null} */
    static Bytes of(Buffer view) {
        return any ? VIEWS.get(view) : null;
    }
}
