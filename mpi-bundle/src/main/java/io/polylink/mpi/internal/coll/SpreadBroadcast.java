package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.coll.schedule.Direct;
import io.polylink.mpi.internal.datatype.BufferReader;
import io.polylink.mpi.internal.datatype.BufferWriter;
import io.polylink.mpi.internal.datatype.Cursor;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.p2p.PointToPoint;
import io.polylink.mpi.internal.p2p.RankMap;
import io.polylink.mpi.internal.shared.Bounces;
import io.polylink.mpi.internal.shared.PeerSegments;
import io.polylink.mpi.internal.shared.SharedBytes;
import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

/**
 * A blocking broadcast among ranks of one host, of any size, through their {@link HostArea}: the
 * root names in its slot a buffer the ranks share, which holds the data or which the root packs it
 * into while the others read, and counts what it packed in a word of the area; every other rank
 * unpacks the data from there as the count passes it. A rank that cannot map the root's buffer
 * says so in its words of the area, and the root sends it the data by message.
 *
 * <p>Made with the area, and used by one thread at a time, as a communicator's collectives are.
 */
final class SpreadBroadcast {

    /**
     * How much of a large broadcast its root packs before it says so: an eighth of the message,
     * from 4 to 64 KiB. The others unpack each piece while the root packs the next, two copies side
     * by side where one after the other would take twice as long; smaller pieces cost a look at
     * the count each (docs/performance-notes.md#spread-broadcast).
     */
    private static final int PIECE_LEAST = 4 * 1024;
    private static final int PIECE_MOST = 64 * 1024;
    /**
     * The least message between two ranks that the root packs into a bounce buffer: a smaller one
     * goes faster as a message, copied into the ring and out, where the bounce buffer adds the
     * root's wait for its reader.
     */
    static final int PACKED_BETWEEN_TWO = 16 * 1024;
    /** What a large broadcast's root says in its slot: where the data lies, or why the ranks take messages. */
    private static final long IN_SHARED_BUFFER = 1;
    private static final long NO_BOUNCE_BUFFER = 2;
    private static final long SMALL_BETWEEN_TWO = 3;
    private static final String NO_BOUNCE_BUFFER_REFUSED = HostArea.ALGORITHM
        + " refused: the root had no bounce buffer free";
    private static final String SMALL_BETWEEN_TWO_REFUSED = HostArea.ALGORITHM + " refused: between two ranks, "
        + "data the root must pack goes faster by messages below " + PACKED_BETWEEN_TWO + " bytes";

    private final HostArea area;
    private final PointToPoint p2p;
    private final RankMap ranks;
    private final int size;
    private final int rank;
    /** Bytes of large broadcasts packed, that a rank waits for; the rank whose reading the root waits for. */
    private long awaitedPacked;
    private int reader;
    private final BooleanSupplier packed;
    private final BooleanSupplier read;

    /**
     * @param area where the communicator's ranks meet
     * @param ranks the communicator's ranks
     * @param rank this rank in the communicator
     */
    SpreadBroadcast(HostArea area, PointToPoint p2p, RankMap ranks, int rank) {
        this.area = area;
        this.p2p = p2p;
        this.ranks = ranks;
        this.size = area.size();
        this.rank = rank;
        this.packed = () -> area.packed() >= awaitedPacked;
        this.read = () -> area.finished(reader) >= area.calls() || area.wants(reader) == area.calls();
    }

    /**
     * The next call is a broadcast of {@code data} from {@code root}, of any size: the root names in
     * its slot where the data lies in a buffer the ranks share (where it already lies, or a bounce
     * buffer it packs the data into piece by piece, saying how far it got), and every other rank
     * unpacks it from there as it comes. A rank that cannot map the root's buffer says so, and the
     * root sends it the data by message. The root leaves once every rank has read the data, when
     * its buffer is free again. Finishes the call.
     *
     * @param d the call's messages, for a rank that cannot read the root's buffer
     * @return {@code null} once the data spread; else, with the call finished and nothing moved,
     *     why not ({@code shared-memory refused: …}): every rank then broadcasts by messages
     * @throws io.polylink.mpi.internal.MpiError if a rank of the communicator is lost meanwhile
     */
    String run(Direct d, int root, Region data) {
        try {
            long how = rank == root ? spreadFrom(d, data) : spreadTo(d, root, data);
            return how == IN_SHARED_BUFFER ? null : how == NO_BOUNCE_BUFFER ? NO_BOUNCE_BUFFER_REFUSED
                : SMALL_BETWEEN_TWO_REFUSED;
        } catch (RuntimeException e) {
            throw Direct.failed(e);
        }
    }

    private long spreadFrom(Direct d, Region data) {
        int parity = area.enter();
        long bytes = data.bytes();
        SharedBytes at = p2p.shared(data.memory(), data.map());
        Bounces bounces = p2p.bounces();
        Bounces.Bounce bounce = null;
        long how = IN_SHARED_BUFFER;
        if (at == null) {
            boolean small = size == 2 && bytes < PACKED_BETWEEN_TWO;
            bounce = small || bounces == null ? null : bounces.take(bytes);
            how = bounce != null ? IN_SHARED_BUFFER : small ? SMALL_BETWEEN_TWO : NO_BOUNCE_BUFFER;
            at = bounce == null ? null : bounce.at();
        }
        long base = area.packed();
        ByteBuffer slot = area.slot(parity, rank);
        slot.putLong(0, how);
        if (at != null) {
            HostArea.putPlace(slot, 8, at);
            slot.putLong(32, bytes).putLong(40, base);
            if (bounce == null) {
                area.packedTo(base + bytes);
            }
        }
        area.post();
        if (at == null) {
            area.finish();
            return how;
        }
        try {
            if (bounce != null) {
                pack(data, bounce.buffer(), base);
            }
            for (reader = 0; reader < size; reader++) {
                if (reader != rank && !read.getAsBoolean()) {
                    p2p.await(read, ranks);
                }
                if (reader != rank && area.finished(reader) < area.calls()) {
                    d.send(reader, data); // it could not read the buffer
                }
            }
        } catch (RuntimeException | Error e) {
            if (bounce != null) {
                bounces.discard(bounce); // a rank may read it yet
            }
            throw e;
        }
        if (bounce != null) {
            bounces.give(bounce);
        }
        area.finish();
        return how;
    }

    /** Packs {@code data} into {@code bounce} piece by piece, counting each piece in the packed bytes from {@code base}. */
    private void pack(Region data, ByteBuffer bounce, long base) {
        long piece = Math.max(PIECE_LEAST, Math.min(PIECE_MOST, data.bytes() / 8));
        Cursor cursor = new Cursor(data.memory(), data.map(), data.count());
        BufferWriter out = new BufferWriter(bounce);
        while (!cursor.finished()) {
            cursor.pack(out, piece);
            area.packedTo(base + cursor.done());
        }
    }

    private long spreadTo(Direct d, int root, Region data) {
        int parity = area.awaitPost();
        ByteBuffer slot = area.slot(parity, root);
        long how = slot.getLong(0);
        if (how != IN_SHARED_BUFFER) {
            area.finish();
            return how;
        }
        SharedBytes at = HostArea.place(slot, 8);
        long bytes = slot.getLong(32);
        long base = slot.getLong(40);
        if (bytes > data.bytes()) {
            area.finish(); // the root goes on; this rank's call fails
            throw new MpiError(ErrorClass.ERR_TRUNCATE, "the root broadcasts " + bytes + " bytes, which do not fit "
                + data.count() + " elements of " + data.bytes() + " bytes: the types and counts of the ranks do "
                + "not match");
        }
        PeerSegments peers = p2p.peerSegments();
        ByteBuffer shared = peers == null ? null : peers.bytes(at, bytes);
        if (shared == null || !unpack(shared, base, bytes, data)) {
            if (shared != null) {
                peers.forget(at);
            }
            area.want();
            d.receive(root, data);
        }
        area.finish();
        return how;
    }

    /**
     * Unpacks {@code bytes} from {@code shared} into {@code data} as the root says it packed them,
     * counted from {@code base}.
     *
     * @return whether it could; {@code false} if the root's file lost pages under the copy
     *     (truncated by someone), where a read faults
     */
    private boolean unpack(ByteBuffer shared, long base, long bytes, Region data) {
        Cursor cursor = new Cursor(data.memory(), data.map(), data.count());
        BufferReader in = new BufferReader(shared);
        try {
            while (cursor.done() < bytes) {
                long ready = area.packed() - base;
                if (ready <= cursor.done()) {
                    awaitedPacked = base + cursor.done() + 1;
                    p2p.await(packed, ranks);
                    ready = area.packed() - base;
                }
                cursor.unpack(in, Math.min(ready, bytes) - cursor.done());
            }
            return true;
        } catch (InternalError cutShort) {
            return false;
        }
    }
}
