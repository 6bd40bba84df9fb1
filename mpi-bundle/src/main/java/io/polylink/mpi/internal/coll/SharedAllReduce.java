package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Direct;
import io.polylink.mpi.internal.datatype.LocalCopy;
import io.polylink.mpi.internal.datatype.Memories;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.op.Operand;
import io.polylink.mpi.internal.op.Reduction;
import io.polylink.mpi.internal.p2p.PointToPoint;
import io.polylink.mpi.internal.shared.Bounces;
import io.polylink.mpi.internal.shared.PeerSegments;
import io.polylink.mpi.internal.shared.SharedBytes;
import java.nio.ByteBuffer;

/**
 * A blocking allreduce of 16 to 64 KiB among ranks of one host, through memory they share and no
 * message: each rank leaves its data where the others can read it (where it lies in a shared
 * buffer, else packed once into a bounce buffer, all but its own block, which no other rank
 * reads), combines its own block of the vector from every rank's data where that lies, and leaves
 * its block of the result where the others can read it (in its result buffer if that is shared,
 * else in the bounce buffer where its own block of the data would be, each piece packed there
 * while the core still holds it); then each copies every other rank's block of the result. The
 * kernels combine straight from the other ranks' memory, where Rabenseifner's messages copy each
 * half into a ring and out at every round, and among more ranks than cores no round waits for a
 * rank to get a core.
 *
 * <p>The ranks meet in the {@link HostArea} four times: once every rank said where its data lies,
 * once every rank could map the others' (else they all take messages, nothing changed yet), once
 * every block is combined, and at the end, before any rank may reuse its buffers. A smaller vector
 * goes faster by recursive doubling, whose rounds cost less than four meetings, and a larger one
 * by messages (docs/performance-notes.md#shared-allreduce).
 */
final class SharedAllReduce {

    /** The algorithm's name, as for the small calls that meet in the area. */
    static final String ALGORITHM = HostArea.ALGORITHM;
    /** What a rank says in its slot: where its data and its block's result lie, or that it has no bounce buffer. */
    private static final long PLACED = 1;
    private static final long NO_BOUNCE_BUFFER = 2;
    /** Where the slot holds the rank's data's place, its result's place, and whether it mapped every other rank's. */
    private static final int INPUT = 8;
    private static final int RESULT = 32;
    private static final int MAPPED = 56;
    private static final String NO_BOUNCE_BUFFER_REFUSED = ALGORITHM + " refused: a rank had no bounce buffer free";
    private static final String NOT_MAPPED_REFUSED = ALGORITHM + " refused: a rank could not map another's buffer";

    /** Vectors this large and smaller go by recursive doubling, whose rounds cost less than four meetings. */
    static final long SMALLEST = 16 * 1024;
    /**
     * The largest vector that goes this way; larger ones go faster as messages (Rabenseifner's, by
     * reference where they can), whose chunks let one rank copy while another combines, where here
     * every rank waits at each meeting for the slowest.
     */
    static final long LARGEST = 64 * 1024;
    /** The piece of its block a rank combines and publishes at a time: within the core's first-level cache. */
    private static final long PIECE_BYTES = 16 * 1024;

    /** Memory laid out as another rank's packed data is, to ask the kernels whether they can read it. */
    private static final ByteBuffer PROBE = ByteBuffer.allocateDirect(8).asReadOnlyBuffer();

    private SharedAllReduce() {}

    /**
     * @return whether an allreduce of {@code reduction} on {@code map} can go this way: an operation
     *     that splits a vector and whose kernels read another rank's packed data where it lies
     */
    static boolean fits(Reduction reduction, Typemap map, long count, int ranks) {
        long bytes = map.size() * count;
        return bytes > SMALLEST && bytes <= LARGEST && reduction.splits() && reduction.commutative()
            && map.isDense() && count >= ranks
            && reduction.operandIn(new Region(Memories.of(PROBE, false), map, 0), map, 0) != null;
    }

    /**
     * Runs the allreduce: {@code partial} holds the whole result after, which the caller stores.
     *
     * @param input this rank's data ({@code recv} itself in place)
     * @return {@code null} once done; else why not, with nothing changed: the ranks then take messages
     * @throws io.polylink.mpi.internal.MpiError if a rank of the communicator is lost meanwhile
     */
    static String run(HostArea area, PointToPoint p2p, int rank, Partial partial, Region input, Region recv,
                      boolean inPlace) {
        int size = area.size();
        long count = partial.count;
        Typemap map = partial.map;
        long element = map.size();
        long bytes = element * count;
        long first = first(rank, size, count);
        long n = first(rank + 1, size, count) - first;
        int parity = area.enter();
        SharedBytes in = p2p.shared(input.memory(), input.map());
        SharedBytes out = partial.inResultBuffer() ? p2p.shared(recv.memory(), recv.map()) : null;
        // One bounce buffer laid out as the vector: the others' blocks of this rank's data packed,
        // and its block of the result where its own block of the data would be.
        boolean needsBounce = in == null || out == null;
        Bounces bounces = p2p.bounces();
        Bounces.Bounce bounce = needsBounce && bounces != null ? bounces.take(bytes) : null;
        ByteBuffer resultBounce = null;
        try {
            ByteBuffer mine = area.slot(parity, rank);
            if (needsBounce && bounce == null) {
                mine.putLong(0, NO_BOUNCE_BUFFER);
            } else {
                if (in == null) {
                    ByteBuffer packed = bounce.buffer();
                    LocalCopy.pack(input.slice(0, first), packed.slice(0, (int) (first * element)));
                    long after = first + n;
                    LocalCopy.pack(input.slice(after, count - after),
                        packed.slice((int) (after * element), (int) ((count - after) * element)));
                    in = bounce.at();
                }
                if (out == null) {
                    resultBounce = bounce.buffer().slice((int) (first * element), (int) (n * element));
                    out = bounce.at();
                }
                mine.putLong(0, PLACED);
                HostArea.putPlace(mine, INPUT, in);
                HostArea.putPlace(mine, RESULT, out);
            }
            if (area.agree(parity, 0, PLACED, bounces, bounce) != PLACED) {
                return NO_BOUNCE_BUFFER_REFUSED;
            }
            ByteBuffer[] inputs = new ByteBuffer[size];
            ByteBuffer[] results = new ByteBuffer[size];
            PeerSegments peers = p2p.peerSegments();
            boolean mapped = peers != null;
            for (int r = 0; r < size && mapped; r++) {
                if (r != rank) {
                    inputs[r] = peers.bytes(HostArea.place(area.slot(parity, r), INPUT), bytes);
                    results[r] = peers.bytes(HostArea.place(area.slot(parity, r), RESULT), bytes);
                    mapped = inputs[r] != null && results[r] != null;
                }
            }
            mine.putLong(MAPPED, mapped ? 1 : 0);
            if (area.agree(parity, MAPPED, 1, bounces, bounce) != 1) {
                return NOT_MAPPED_REFUSED;
            }
            combine(partial, input, inPlace, inputs, rank, first, n, resultBounce);
            area.meet();
            for (int r = 0; r < size; r++) {
                if (r != rank) {
                    long from = first(r, size, count);
                    long blocks = first(r + 1, size, count) - from;
                    LocalCopy.unpack(results[r].slice((int) (from * element), (int) (blocks * element)),
                        partial.current().slice(from, blocks));
                }
            }
            area.finishTogether();
        } catch (RuntimeException e) {
            if (bounce != null) {
                bounces.discard(bounce); // a rank may read it yet
            }
            throw Direct.failed(e);
        }
        if (bounce != null) {
            bounces.give(bounce);
        }
        return null;
    }

    /**
     * Combines this rank's block of the result from its own data and the others'; if the result
     * is not where the others can read it, a piece at a time, each packed into
     * {@code resultBounce} while it is still in the core's cache.
     */
    private static void combine(Partial partial, Region input, boolean inPlace, ByteBuffer[] inputs, int rank,
                                long first, long n, ByteBuffer resultBounce) {
        Reduction reduction = partial.reduction;
        Typemap map = partial.map;
        long count = partial.count;
        long element = map.size();
        Operand result = partial.current();
        Operand[] theirs = new Operand[inputs.length];
        for (int r = 0; r < inputs.length; r++) {
            if (r != rank) {
                theirs[r] = reduction.operandIn(new Region(Memories.of(inputs[r], false), map, count), map, count);
            }
        }
        boolean copies = !(inPlace && partial.inResultBuffer());
        // In pieces only when each must be packed after: the kernels stage a buffer's values in
        // arrays of their own per call, so a result in a shared buffer goes in one.
        long piece = resultBounce == null ? Math.max(1, n) : Math.max(1, PIECE_BYTES / element);
        for (long at = first; at < first + n; at += piece) {
            long m = Math.min(piece, first + n - at);
            if (copies) {
                LocalCopy.copy(input.slice(at, m), result.slice(at, m));
            }
            for (int r = 0; r < theirs.length; r++) {
                if (r != rank) {
                    reduction.combine(theirs[r], result, at, m);
                }
            }
            if (resultBounce != null) {
                LocalCopy.pack(result.slice(at, m),
                    resultBounce.slice((int) ((at - first) * element), (int) (m * element)));
            }
        }
    }

    /** @return the first element of rank {@code r}'s block: the vector in {@code size} blocks as even as can be */
    private static long first(int r, int size, long count) {
        return count * r / size;
    }
}
