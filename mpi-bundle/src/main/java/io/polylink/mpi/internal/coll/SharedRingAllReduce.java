package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Direct;
import io.polylink.mpi.internal.datatype.BufferReader;
import io.polylink.mpi.internal.datatype.Cursor;
import io.polylink.mpi.internal.datatype.LocalCopy;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.op.Operand;
import io.polylink.mpi.internal.op.Reduction;
import io.polylink.mpi.internal.p2p.PointToPoint;
import io.polylink.mpi.internal.shared.Bounces;
import io.polylink.mpi.internal.shared.PeerSegments;
import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

/**
 * A blocking allreduce of more than 64 KiB and up to 1 MiB among ranks of one host whose data must
 * be packed to be shared (Java arrays): a reduce-scatter and then an allgather round a ring, a
 * piece at a time, through a small buffer of each rank's that its right-hand neighbour reads. A rank writes the
 * pieces of its own block of the vector there; each piece it takes from its left-hand neighbour's
 * buffer it combines with its own data into its result and writes on, while the piece is still in
 * the core's cache; a block that has gone round once is the result, and goes round once more
 * whole. Each piece moves as soon as its neighbour took the one before it from the same place, so
 * a rank combines while its neighbours pack and unpack, and a rank that waits for a core holds up
 * only the pieces behind it. Rabenseifner's messages pack each half whole into a bounce buffer
 * before the partner can read any of it, and each round waits for the slower rank's whole half
 * (docs/performance-notes.md#shared-ring).
 *
 * <p>The buffer holds four pieces or more; a rank counts the pieces it wrote and the pieces it
 * took in its words of the {@link HostArea}, all calls' together, so a piece's place in the buffer
 * is its count and no call starts by resetting anything. The ranks meet twice first: once each said
 * where its buffer lies (or why it takes messages: no bounce buffer free, data the ranks share,
 * which Rabenseifner's messages send by reference in one copy), once each could map its left-hand
 * neighbour's; a refusal at either leaves nothing changed, and all take messages.
 */
final class SharedRingAllReduce {

    /** The algorithm's name, as for the other calls that meet in the area. */
    static final String ALGORITHM = HostArea.ALGORITHM;
    /** Vectors larger than this go round the ring; smaller ones by {@link SharedAllReduce}'s blocks. */
    static final long SMALLEST = SharedAllReduce.LARGEST;
    /**
     * The largest vector that goes this way. A larger one went faster by Rabenseifner's messages
     * through bounce buffers: out of the caches either way, a piece another core wrote a moment ago
     * costs more to read than a buffer it wrote whole before (docs/performance-notes.md#shared-ring).
     */
    static final long LARGEST = 1024 * 1024;
    /**
     * The bytes of a piece: a quarter of a block, from 16 to 64 KiB. Smaller pieces let the ranks
     * start sooner, larger ones cost fewer looks at the neighbours' counts: between two ranks on an
     * Intel Xeon, pieces of 8 and 16 KiB took longer from 256 KiB to 1 MiB, and pieces of 64 KiB
     * were no faster than quarters (docs/performance-notes.md#shared-ring).
     */
    private static final long PIECE_LEAST = 16 * 1024;
    private static final long PIECE_MOST = 64 * 1024;
    /** The bytes of a rank's buffer: four of the largest pieces, more of smaller ones. */
    private static final long BUFFER_BYTES = 4 * PIECE_MOST;
    /** What a rank says in its slot: where its buffer lies, or why the ranks take messages. */
    private static final long PLACED = 1;
    private static final long NO_BOUNCE_BUFFER = 2;
    private static final long DATA_SHARED = 3;
    /** Where the slot holds the buffer's place, and whether the rank mapped its neighbour's. */
    private static final int BUFFER = 8;
    private static final int MAPPED = 32;
    private static final String NO_BOUNCE_BUFFER_REFUSED = ALGORITHM + " refused: a rank had no bounce buffer free";
    private static final String DATA_SHARED_REFUSED = ALGORITHM + " refused: the ranks' data lies in buffers they "
        + "share, which messages send by reference in one copy";
    private static final String NOT_MAPPED_REFUSED = ALGORITHM + " refused: a rank could not map its neighbour's "
        + "buffer";

    private final HostArea area;
    private final Reduction reduction;
    private final int size;
    private final int rank;
    private final int right;
    private final int left;
    private final long count;
    private final long element;
    /** Elements per piece, and pieces per block: every block has as many, the last ones of a short block empty. */
    private final long perPiece;
    private final long pieces;
    /** Pieces a rank writes in a call, and takes: a reduce-scatter's and an allgather's, of {@code size - 1} blocks. */
    private final long total;
    private final Region input;
    private final Operand result;
    /** The result as a receive buffer that combines each piece with the rank's own data as it unpacks. */
    private final Operand combining;
    /** Whether the rank's own data must be copied into the result before a piece combines onto it there. */
    private final boolean loadFirst;
    private final ByteBuffer mine;
    private final ByteBuffer theirs;
    /** Pieces the buffers hold, and the bytes of each. */
    private final long slots;
    private final long slotBytes;
    /** The counts in the area when the call started, and this call's pieces since. */
    private final long writtenBefore;
    private final long takenBefore;
    private long written;
    private long taken;
    private final BooleanSupplier movable = this::movable;

    private SharedRingAllReduce(HostArea area, int rank, Partial partial, Region input, boolean inPlace,
                                ByteBuffer mine, ByteBuffer theirs) {
        this.area = area;
        this.reduction = partial.reduction;
        this.size = area.size();
        this.rank = rank;
        this.right = (rank + 1) % size;
        this.left = (rank + size - 1) % size;
        this.count = partial.count;
        this.element = partial.map.size();
        this.perPiece = perPiece(element, count, size);
        this.pieces = ceilDiv(ceilDiv(count, size), perPiece);
        this.total = 2L * (size - 1) * pieces;
        this.input = input;
        this.result = partial.current();
        boolean same = inPlace && partial.inResultBuffer();
        Operand own = same ? null : reduction.operandIn(input, partial.map, count);
        this.combining = own != null ? reduction.combining(result, own) : reduction.combining(result);
        this.loadFirst = !same && own == null;
        this.mine = mine;
        this.theirs = theirs;
        this.slotBytes = perPiece * element;
        this.slots = BUFFER_BYTES / slotBytes;
        this.writtenBefore = area.written(rank);
        this.takenBefore = area.taken(rank);
    }

    /**
     * @return whether an allreduce of {@code count} elements into {@code partial} among
     *     {@code ranks} can go this way: its size, a dense type, and a commutative operation that
     *     splits a vector and combines a message as it unpacks it
     */
    static boolean fits(Partial partial, long count, int ranks) {
        Reduction reduction = partial.reduction;
        Typemap map = partial.map;
        long bytes = map.size() * count;
        return bytes > SMALLEST && bytes <= LARGEST && reduction.splits() && reduction.commutative() && map.isDense()
            && map.size() <= PIECE_LEAST && count >= ranks && reduction.combining(partial.current()) != null;
    }

    /**
     * Runs the allreduce: {@code partial} holds the whole result after, which the caller stores.
     *
     * @param input this rank's data ({@code recv} itself in place)
     * @param recv where the caller wants the result
     * @return {@code null} once done; else why not, with nothing changed: the ranks then take messages
     * @throws io.polylink.mpi.internal.MpiError if a rank of the communicator is lost meanwhile
     */
    static String run(HostArea area, PointToPoint p2p, int rank, Partial partial, Region input, Region recv,
                      boolean inPlace) {
        int size = area.size();
        long slotBytes = perPiece(partial.map.size(), partial.count, size) * partial.map.size();
        long windowBytes = BUFFER_BYTES / slotBytes * slotBytes;
        int parity = area.enter();
        boolean shared = p2p.shared(input.memory(), input.map()) != null && partial.inResultBuffer()
            && p2p.shared(recv.memory(), recv.map()) != null;
        Bounces bounces = p2p.bounces();
        Bounces.Bounce window = !shared && bounces != null ? bounces.take(windowBytes) : null;
        try {
            ByteBuffer slot = area.slot(parity, rank);
            if (window != null) {
                slot.putLong(0, PLACED);
                HostArea.putPlace(slot, BUFFER, window.at());
            } else {
                slot.putLong(0, shared ? DATA_SHARED : NO_BOUNCE_BUFFER);
            }
            long said = area.agree(parity, 0, PLACED, bounces, window);
            if (said != PLACED) {
                return said == DATA_SHARED ? DATA_SHARED_REFUSED : NO_BOUNCE_BUFFER_REFUSED;
            }
            PeerSegments peers = p2p.peerSegments();
            int left = (rank + size - 1) % size;
            ByteBuffer theirs = peers == null ? null
                : peers.bytes(HostArea.place(area.slot(parity, left), BUFFER), windowBytes);
            slot.putLong(MAPPED, theirs != null ? 1 : 0);
            if (area.agree(parity, MAPPED, 1, bounces, window) != 1) {
                return NOT_MAPPED_REFUSED;
            }
            area.finish(); // nobody reads the slots after the meetings
            new SharedRingAllReduce(area, rank, partial, input, inPlace, window.buffer(), theirs).turn();
        } catch (RuntimeException e) {
            if (window != null) {
                bounces.discard(window); // the neighbour may read it yet
            }
            throw Direct.failed(e);
        }
        bounces.give(window);
        return null;
    }

    /**
     * Writes and takes every piece of the call, whichever can move first, then waits until the
     * right-hand neighbour took the last piece from this rank's buffer, which it may reuse then.
     */
    private void turn() {
        while (written < total || taken < total) {
            boolean moved = false;
            if (writable()) {
                write();
                moved = true;
            }
            if (takable()) {
                take();
                moved = true;
            }
            if (!moved) {
                area.await(movable);
            }
        }
        long last = writtenBefore + written;
        area.await(() -> area.taken(right) >= last);
    }

    private boolean movable() {
        return writable() || takable();
    }

    /**
     * @return whether the next piece may be written: it is this rank's own data or a piece it took
     *     already, and the right-hand neighbour took the piece that was in its place
     */
    private boolean writable() {
        return written < total && (written < pieces || written - pieces < taken)
            && writtenBefore + written - area.taken(right) < slots;
    }

    private boolean takable() {
        return taken < total && area.written(left) > takenBefore + taken;
    }

    /** Writes piece {@code written}: of the rank's own block first, then of the block it took last. */
    private void write() {
        long step = written / pieces;
        long block = Math.floorMod(rank - step, (long) size);
        long first = firstOf(block, written % pieces);
        long n = lengthOf(block, first);
        Region from = step == 0 ? input.slice(first, n) : result.slice(first, n);
        int at = (int) (((writtenBefore + written) % slots) * slotBytes);
        LocalCopy.pack(from, mine.slice(at, (int) (n * element)));
        written++;
        area.wrote(writtenBefore + written);
    }

    /**
     * Takes piece {@code taken} from the left-hand neighbour's buffer: in the reduce-scatter,
     * combined with the rank's own data into the result; in the allgather, a piece of the result.
     */
    private void take() {
        long step = taken / pieces;
        long block = Math.floorMod(rank - step - 1, (long) size);
        long first = firstOf(block, taken % pieces);
        long n = lengthOf(block, first);
        int at = (int) (((takenBefore + taken) % slots) * slotBytes);
        ByteBuffer piece = theirs.slice(at, (int) (n * element));
        if (step < size - 1) {
            if (loadFirst) {
                LocalCopy.copy(input.slice(first, n), result.slice(first, n));
            }
            Region into = combining.slice(first, n);
            Cursor.unpackAll(into.memory(), into.map(), into.count(), new BufferReader(piece), n * element);
        } else {
            LocalCopy.unpack(piece, result.slice(first, n));
        }
        taken++;
        area.took(takenBefore + taken);
    }

    /** @return the first element of piece {@code k} of {@code block}, or the block's end if the block is shorter */
    private long firstOf(long block, long k) {
        return Math.min(start(block) + k * perPiece, start(block + 1));
    }

    private long lengthOf(long block, long first) {
        return Math.min(perPiece, start(block + 1) - first);
    }

    /** @return the first element of block {@code b}: the vector in {@code size} blocks as even as can be */
    private long start(long b) {
        return count * b / size;
    }

    /** @return the elements of a piece: a quarter of a block, from {@link #PIECE_LEAST} to {@link #PIECE_MOST} bytes */
    private static long perPiece(long element, long count, int size) {
        long quarter = ceilDiv(ceilDiv(count, size), 4) * element;
        return Math.max(1, Math.min(PIECE_MOST, Math.max(PIECE_LEAST, quarter)) / element);
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
