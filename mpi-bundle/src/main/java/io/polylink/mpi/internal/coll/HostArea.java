package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Direct;
import io.polylink.mpi.internal.datatype.Kind;
import io.polylink.mpi.internal.datatype.LocalCopy;
import io.polylink.mpi.internal.datatype.Memories;
import io.polylink.mpi.internal.datatype.Memory;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.op.Operand;
import io.polylink.mpi.internal.op.Reduction;
import io.polylink.mpi.internal.p2p.PointToPoint;
import io.polylink.mpi.internal.p2p.RankMap;
import io.polylink.mpi.internal.shared.Bounces;
import io.polylink.mpi.internal.shared.OwnSegments;
import io.polylink.mpi.internal.shared.PeerSegments;
import io.polylink.mpi.internal.shared.SharedBytes;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.BooleanSupplier;

/**
 * Memory that every rank of a communicator on one host maps, where its small blocking collectives
 * meet without a message: a count of arrivals, the last call rank 0 let the others out of, the
 * last broadcast posted, how many calls each rank finished, and a slot of data per rank for each
 * of two calls in turn.
 *
 * <p>The ranks number their calls here alike, as every rank makes a communicator's collective
 * calls in the same order. A rank arrives at a meeting by adding one to the count, and leaves once
 * the count says every rank has: the last rank to arrive lets every other out with that one store.
 * Messages would let them out a hop at a time, and with more ranks than cores each hop waits for
 * its receiver to get a core (docs/performance-notes.md#host-area). A broadcast's root puts the
 * data in its slot and posts the call; the others wait for that, and read it. A larger broadcast's
 * root names in its slot where the others read the data ({@link SpreadBroadcast}).
 *
 * <p>Call {@code g}'s data goes in the slots of {@code g}'s parity, so a rank writes a slot only
 * once every rank finished call {@code g - 2}, which read the same slots: each rank says how many
 * calls it finished in a word of its own, and a rank that wrote in the slots last checks those
 * words before it writes again. After a meeting there is nothing to check: every rank arrived at
 * it having finished every call before it.
 *
 * <p>Made by {@link #open}, a collective call of its own, at the first call that can use it; the
 * file behind it is deleted as soon as every rank mapped it, so nothing is left on the host
 * whatever becomes of the ranks. Used by one thread at a time, as a communicator's collectives are.
 */
final class HostArea {

    /** The algorithm's name, as the info keys name it and explanations say it. */
    static final String ALGORITHM = "shared-memory";
    /** The most bytes of a rank's data a call puts in its slot. */
    static final int SLOT = 1024;
    /**
     * Where the words lie: the count of arrivals at meetings; the calls rank 0 let the others out
     * of; the calls up to the last broadcast posted; the bytes large broadcasts' roots packed, all
     * calls' together ({@link SpreadBroadcast}); from {@link #FINISHED}, the calls each rank
     * finished, and beside each the last large broadcast that rank could not read where its root
     * put it ({@link #WANTS}), and on the line after, the pieces that rank wrote for its neighbour
     * in a ring and took from its other neighbour, all calls' together ({@link SharedRingAllReduce}).
     * Each rank's words have 128 bytes to themselves, as adjacent cache lines are fetched in pairs.
     */
    private static final int ARRIVALS = 0;
    private static final int RELEASED = 128;
    private static final int POSTED = 256;
    private static final int PACKED = 384;
    private static final int FINISHED = 512;
    private static final int WANTS = 8;
    private static final int WRITTEN = 64;
    private static final int TAKEN = 72;
    private static final int LINE = 128;
    private static final VarHandle WORD = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final PointToPoint p2p;
    private final RankMap ranks;
    private final int size;
    private final int rank;
    private final ByteBuffer area;
    /** Each slot's bytes and memory, call parity first: {@code [parity * size + rank]}. */
    private final ByteBuffer[] slots;
    private final Memory[] memories;
    /** Operands over the slots, for the reduction, typemap and count they were made for. */
    private final Operand[] operands;
    private Reduction operandsOf;
    private Typemap operandsMap;
    private long operandsCount;
    /** Calls this rank started, meetings among them, and the count of arrivals the current meeting waits for. */
    private long calls;
    private long meetings;
    private long awaited;
    /** Calls every rank is known to have finished, and how many a call that writes in the slots waits for. */
    private long finishedByAll;
    private long needed;
    private final BooleanSupplier allArrived;
    private final BooleanSupplier released;
    private final BooleanSupplier posted;
    private final BooleanSupplier allFinished;

    private HostArea(PointToPoint p2p, RankMap ranks, int size, int rank, ByteBuffer area) {
        this.p2p = p2p;
        this.ranks = ranks;
        this.size = size;
        this.rank = rank;
        this.area = area.order(ByteOrder.nativeOrder());
        this.allArrived = () -> (long) WORD.getAcquire(this.area, ARRIVALS) >= awaited;
        this.released = () -> (long) WORD.getAcquire(this.area, RELEASED) >= calls;
        this.posted = () -> (long) WORD.getAcquire(this.area, POSTED) >= calls;
        this.allFinished = () -> finishedByAll() >= needed;
        this.slots = new ByteBuffer[2 * size];
        this.memories = new Memory[2 * size];
        this.operands = new Operand[2 * size];
        int from = slotsFrom(size);
        for (int i = 0; i < slots.length; i++) {
            slots[i] = area.slice(from + i * SLOT, SLOT);
            memories[i] = Memories.of(slots[i], true);
        }
    }

    private static int slotsFrom(int size) {
        return FINISHED + size * LINE;
    }

    /** @return the bytes an area for {@code size} ranks takes */
    static int bytes(int size) {
        return slotsFrom(size) + 2 * size * SLOT;
    }

    /** An area, or why the ranks have none. */
    record Opened(HostArea area, String refused) {}

    /** What a rank answers when the area is named: it mapped it, or why it did not. */
    private static final long MAPPED = 0;
    private static final long NO_DIRECTORY = 1;
    private static final long NOT_MADE = 2;
    private static final long NOT_MAPPED = 3;
    private static final long NOT_SHM = 4;

    /**
     * Makes the area of a communicator whose {@code size} ranks all run on this host: rank 0 makes
     * it and names it to the others, each maps it, and rank 0 tells all whether every rank could;
     * then rank 0 deletes its file. A rank that reaches another by something else than shm refuses
     * it: an operator who chose another method for these ranks' messages did not choose shared
     * memory for them. Every rank calls it at the same call.
     *
     * @param d the call's messages
     * @param context the collectives' context id, whose links are checked
     * @return the area, or why there is none: the same answer at every rank
     */
    static Opened open(Direct d, PointToPoint p2p, int context, RankMap ranks, int size, int rank) {
        int bytes = bytes(size);
        // {made, pid, token} from rank 0; {answer, rank} back; {answer, rank, member} as the verdict.
        long[] name = new long[3];
        long[] verdict = {MAPPED, 0, 0};
        ByteBuffer mapped = null;
        try {
            long[] mine = {MAPPED, rank, -1};
            int other = notOverShm(p2p, context, ranks, size, rank);
            if (other >= 0) {
                mine[0] = NOT_SHM;
                mine[2] = other;
            }
            if (rank == 0) {
                OwnSegments own = p2p.ownSegments();
                mapped = own == null || mine[0] != MAPPED ? null : own.place(bytes);
                if (mapped != null) {
                    SharedBytes where = own.find(mapped, 0);
                    name[0] = 1;
                    name[1] = where.pid();
                    name[2] = where.token();
                } else if (mine[0] == MAPPED) {
                    mine[0] = own == null ? NO_DIRECTORY : NOT_MADE;
                }
                for (int r = 1; r < size; r++) {
                    d.send(r, longs(name));
                }
                System.arraycopy(mine, 0, verdict, 0, 3);
                long[] answer = new long[3];
                for (int r = 1; r < size; r++) {
                    d.receive(r, longs(answer));
                    if (answer[0] != MAPPED && verdict[0] == MAPPED) {
                        System.arraycopy(answer, 0, verdict, 0, 3);
                    }
                }
                for (int r = 1; r < size; r++) {
                    d.send(r, longs(verdict));
                }
                if (mapped != null) {
                    own.unlink(mapped);
                }
            } else {
                d.receive(0, longs(name));
                PeerSegments peers = p2p.peerSegments();
                if (mine[0] == MAPPED && name[0] == 1) {
                    mapped = peers == null ? null : peers.writable(new SharedBytes(name[1], name[2], 0), bytes);
                    mine[0] = peers == null ? NO_DIRECTORY : mapped == null ? NOT_MAPPED : MAPPED;
                }
                d.send(0, longs(mine));
                d.receive(0, longs(verdict));
            }
        } catch (RuntimeException e) {
            throw Direct.failed(e);
        }
        if (verdict[0] == MAPPED) {
            return new Opened(new HostArea(p2p, ranks, size, rank, mapped), null);
        }
        long who = verdict[1];
        return new Opened(null, verdict[0] == NO_DIRECTORY ? "rank " + who + " has no directory for shared memory"
            : verdict[0] == NOT_MADE ? "rank 0 could not make a file for it (its log says why)"
            : verdict[0] == NOT_MAPPED ? "rank " + who + " could not map rank 0's file"
            : "rank " + who + " reaches rank " + verdict[2] + " by another method than shm");
    }

    /** @return a rank of the communicator this one's collective messages reach by another method than shm, or -1 */
    private static int notOverShm(PointToPoint p2p, int context, RankMap ranks, int size, int rank) {
        for (int r = 0; r < size; r++) {
            if (r != rank && !"shm".equals(p2p.method(context, ranks.worldRank(r)))) {
                return r;
            }
        }
        return -1;
    }

    private static Region longs(long[] values) {
        return new Region(Memories.of(values, true), Typemap.basic(Kind.LONG), values.length);
    }

    int size() {
        return size;
    }

    /**
     * Starts a call that writes in the slots: waits, if it must, until every rank finished the call
     * that used them last.
     *
     * @return the call's parity, the slots its data goes in
     */
    int enter() {
        if (finishedByAll < calls - 1) {
            needed = calls - 1;
            if (!allFinished.getAsBoolean()) {
                p2p.await(allFinished, ranks);
            }
        }
        return (int) (calls & 1);
    }

    /** @return the least count of calls a rank says it finished, kept as known to all */
    private long finishedByAll() {
        long least = Long.MAX_VALUE;
        for (int r = 0; r < size; r++) {
            least = Math.min(least, finished(r));
        }
        finishedByAll = least;
        return least;
    }

    /**
     * Arrives at the next call, and waits until every rank has.
     *
     * @throws io.polylink.mpi.internal.MpiError if a rank of the communicator is lost meanwhile
     */
    void meet() {
        if (arrive() < awaited) {
            p2p.await(allArrived, ranks);
        }
        finishedByAll = calls - 1;
    }

    /**
     * Arrives at the next call; rank 0 waits until every rank has and then lets the others out,
     * which wait for that. Rank 0 leaves first, as it does a tree barrier, so a call rooted there
     * right after (a broadcast, a scatter) finds its root ahead of the others rather than among them.
     *
     * @throws io.polylink.mpi.internal.MpiError if a rank of the communicator is lost meanwhile
     */
    void meetRootFirst() {
        long arrived = arrive();
        if (rank != 0) {
            if (!released.getAsBoolean()) {
                p2p.await(released, ranks);
            }
        } else {
            if (arrived < awaited) {
                p2p.await(allArrived, ranks);
            }
            WORD.setRelease(area, RELEASED, calls);
        }
        finishedByAll = calls - 1;
    }

    /** Counts this rank in at the next call. @return the count of arrivals, this rank's included */
    private long arrive() {
        long arrived = (long) WORD.getAndAdd(area, ARRIVALS, 1L) + 1;
        calls++;
        meetings++;
        awaited = meetings * size;
        return arrived;
    }

    /**
     * The next call is a broadcast of {@code data} (at most {@link #SLOT} bytes) from {@code root}:
     * the root puts it in its slot and posts the call; every other rank waits for that and takes it
     * into {@code data}. Finishes the call.
     *
     * @throws io.polylink.mpi.internal.MpiError if a rank of the communicator is lost meanwhile
     */
    void broadcast(int root, Region data) {
        if (rank == root) {
            int parity = enter();
            put(parity, data);
            post();
        } else {
            get(awaitPost(), root, data);
        }
        finish();
    }

    /** Posts the current call, which this rank started by {@link #enter} and said in its slot. */
    void post() {
        calls++;
        WORD.setRelease(area, POSTED, calls);
    }

    /**
     * Starts a call rooted at another rank: waits until the root posted it.
     *
     * @return the call's parity, the slots the root said it in
     * @throws io.polylink.mpi.internal.MpiError if a rank of the communicator is lost meanwhile
     */
    int awaitPost() {
        int parity = (int) (calls & 1);
        calls++;
        if (!posted.getAsBoolean()) {
            p2p.await(posted, ranks);
        }
        return parity;
    }

    /**
     * Finishes the current call, and waits until every rank has: for a call whose ranks read each
     * other's buffers up to its end, which none may reuse before.
     *
     * @throws io.polylink.mpi.internal.MpiError if a rank of the communicator is lost meanwhile
     */
    void finishTogether() {
        finish();
        needed = calls;
        if (!allFinished.getAsBoolean()) {
            p2p.await(allFinished, ranks);
        }
    }

    /** @return rank {@code from}'s slot of calls of {@code parity}, for a call that says more there than data */
    ByteBuffer slot(int parity, int from) {
        return slots[parity * size + from];
    }

    /** Writes in {@code slot}, from byte {@code at}, where {@code where} lies: three words. */
    static void putPlace(ByteBuffer slot, int at, SharedBytes where) {
        slot.putLong(at, where.pid()).putLong(at + 8, where.token()).putLong(at + 16, where.offset());
    }

    /** @return where {@link #putPlace} said, from byte {@code at} of {@code slot}, that data lies */
    static SharedBytes place(ByteBuffer slot, int at) {
        return new SharedBytes(slot.getLong(at), slot.getLong(at + 8), slot.getLong(at + 16));
    }

    /** @return the pieces rank {@code r} wrote in its ring buffer, all calls' together */
    long written(int r) {
        return (long) WORD.getAcquire(area, FINISHED + r * LINE + WRITTEN);
    }

    /** @return the pieces rank {@code r} took from its neighbour's ring buffer, all calls' together */
    long taken(int r) {
        return (long) WORD.getAcquire(area, FINISHED + r * LINE + TAKEN);
    }

    /** Says that this rank wrote {@code total} pieces in its ring buffer, all calls' together. */
    void wrote(long total) {
        WORD.setRelease(area, FINISHED + rank * LINE + WRITTEN, total);
    }

    /** Says that this rank took {@code total} pieces from its neighbour's ring buffer, all calls' together. */
    void took(long total) {
        WORD.setRelease(area, FINISHED + rank * LINE + TAKEN, total);
    }

    /** @return the bytes large broadcasts' roots packed, all calls' together */
    long packed() {
        return (long) WORD.getAcquire(area, PACKED);
    }

    /** Says that large broadcasts' roots packed {@code total} bytes, all calls' together. */
    void packedTo(long total) {
        WORD.setRelease(area, PACKED, total);
    }

    /** @return the calls rank {@code r} finished */
    long finished(int r) {
        return (long) WORD.getAcquire(area, FINISHED + r * LINE);
    }

    /** @return the last large broadcast rank {@code r} could not read where its root put it */
    long wants(int r) {
        return (long) WORD.getAcquire(area, FINISHED + r * LINE + WANTS);
    }

    /** Says that this rank could not read the current call's data where its root put it, and wants it by message. */
    void want() {
        WORD.setRelease(area, FINISHED + rank * LINE + WANTS, calls);
    }

    /** @return the calls this rank started, the current one included */
    long calls() {
        return calls;
    }

    /**
     * Meets the other ranks once this rank said in its slot of calls of {@code parity}, at byte
     * {@code at}, {@code ready} or why it cannot go on, and reads what each rank said there. If any
     * said other than {@code ready}, this rank finishes the call and gives its {@code bounce}
     * back, as every rank does: they all refuse alike, before any reads another's buffers.
     *
     * @param bounce this rank's bounce buffer for the call, or {@code null}
     * @return {@code ready} if every rank said it; else what the first rank that did not said
     * @throws io.polylink.mpi.internal.MpiError if a rank of the communicator is lost meanwhile
     */
    long agree(int parity, int at, long ready, Bounces bounces, Bounces.Bounce bounce) {
        meet();
        for (int r = 0; r < size; r++) {
            long said = slots[parity * size + r].getLong(at);
            if (said != ready) {
                finish();
                if (bounce != null) {
                    bounces.give(bounce);
                }
                return said;
            }
        }
        return ready;
    }

    /**
     * Waits until {@code met}: for what another rank says in its words.
     *
     * @throws io.polylink.mpi.internal.MpiError if a rank of the communicator is lost meanwhile
     */
    void await(BooleanSupplier met) {
        if (!met.getAsBoolean()) {
            p2p.await(met, ranks);
        }
    }

    /** Says that this rank finished the current call: it reads nothing more of its slots. */
    void finish() {
        WORD.setRelease(area, FINISHED + rank * LINE, calls);
    }

    /** Puts {@code data}, at most {@link #SLOT} bytes, in this rank's slot of calls of {@code parity}. */
    void put(int parity, Region data) {
        LocalCopy.pack(data, slots[parity * size + rank]);
    }

    /** Takes the data rank {@code from} put in its slot of calls of {@code parity} into {@code to}. */
    void get(int parity, int from, Region to) {
        LocalCopy.unpack(slots[parity * size + from], to);
    }

    /**
     * @return the data rank {@code from} put in its slot of calls of {@code parity}, as an operand of
     *     {@code reduction} over the slot itself, to combine with no copy; or {@code null} if the
     *     reduction's kernels cannot work on it as it lies. Only to read: other ranks read it too.
     */
    Operand operand(int parity, int from, Reduction reduction, Typemap map, long count) {
        if (reduction != operandsOf || map != operandsMap || count != operandsCount) {
            Arrays.fill(operands, null);
            operandsOf = reduction;
            operandsMap = map;
            operandsCount = count;
        }
        int i = parity * size + from;
        Operand o = operands[i];
        if (o == null) {
            o = reduction.operandIn(new Region(memories[i], map, count), map, count);
            operands[i] = o;
        }
        return o;
    }
}
