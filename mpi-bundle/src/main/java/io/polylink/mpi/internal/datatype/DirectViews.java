package io.polylink.mpi.internal.datatype;

import io.polylink.mpi.internal.WeakIdentityTable;
import java.lang.ref.WeakReference;
import java.nio.Buffer;
import java.nio.ByteBuffer;

/**
 * The direct buffers {@code MPI.newCharBuffer} to {@code MPI.newDoubleBuffer} and {@code MPI.slice}
 * made, with the byte buffer each lies in and where: Java gives no way from a {@code DoubleBuffer}
 * to its bytes, and without them its values move one by one where bytes move in bulk.
 */
public final class DirectViews {

    /**
     * The bytes a view lies in: {@code base} from byte {@code offset} on; {@code memory} is
     * {@code base} as a memory, made once for every view of it (it reads and writes by index, so
     * threads share it).
     */
    record Bytes(ByteBuffer base, long offset, Memory memory) {}

    private static final WeakIdentityTable<Bytes> VIEWS = new WeakIdentityTable<>();
    /**
     * Whether any view was remembered: until then a buffer is looked up with no lock taken and
     * nothing allocated, as every message of a program that makes no typed buffers and no slices.
     */
    private static volatile boolean any;

    /**
     * Buffers looked up lately, by their identity's hash: a program passes the same few buffers
     * call after call, and the table's lock and lookup key cost a small message a tenth of its
     * time. Entries are immutable, so a thread reading one another thread wrote sees it whole, or
     * an older one, or none.
     */
    private static final Recent[] RECENT = new Recent[16];

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
            under = new Bytes(b, 0, new ByteBufferMemory(b));
        }
        if (under != null) {
            VIEWS.put(view, new Bytes(under.base(), under.offset() + offset, under.memory()));
            any = true;
        }
        return view;
    }

    /** @return the bytes {@code view} lies in, if it was remembered; else {@code null} */
    static Bytes of(Buffer view) {
        if (!any) {
            return null;
        }
        int slot = System.identityHashCode(view) & (RECENT.length - 1);
        Recent recent = RECENT[slot];
        if (recent != null && recent.view.get() == view) {
            return recent.bytes;
        }
        Bytes bytes = VIEWS.get(view);
        // A view is remembered as it is made, so what a buffer is found to be, or not to be, holds
        // for as long as it lives: the answer can be kept.
        RECENT[slot] = new Recent(new WeakReference<>(view), bytes);
        return bytes;
    }

    /** A buffer looked up, held weakly, and the bytes it lies in, or {@code null} if it is not a view. */
    private record Recent(WeakReference<Buffer> view, Bytes bytes) {}
}
