package io.polylink.mpi.internal.p2p;

import io.polylink.Explanation;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.ArrayReader;
import io.polylink.mpi.internal.datatype.BufferWriter;
import io.polylink.mpi.internal.datatype.Cursor;
import io.polylink.mpi.internal.datatype.Kind;
import io.polylink.mpi.internal.datatype.Memories;
import io.polylink.mpi.internal.datatype.Memory;
import io.polylink.mpi.internal.datatype.MessageWriter;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.request.Completed;
import io.polylink.mpi.internal.request.Operation;
import io.polylink.mpi.internal.shared.Bounces;
import io.polylink.mpi.internal.shared.OwnSegments;
import io.polylink.mpi.internal.shared.PeerSegments;
import io.polylink.mpi.internal.shared.SharedBytes;
import io.polylink.mpi.internal.wire.Header;
import io.polylink.mpi.internal.wire.HeaderCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Point-to-point messaging in terms of the job's ranks and context ids: what communicators call,
 * after they checked their arguments and translated ranks. Thread-safe.
 */
public final class PointToPoint {

    /** Matches any source or any tag. */
    public static final int ANY = -1;

    /** A FENCE waits as a synchronous send of nothing does. */
    private static final Typemap NOTHING = Typemap.basic(Kind.BYTE);

    private final Transport transport;
    private final Limits limits;
    private final Matcher matcher;
    private final RequestTable table = new RequestTable();
    private final Protocol protocol;
    private final ControlListener control;
    /** Which ranks of the job run at another named site than this one's; set once the ranks met. */
    private volatile boolean[] far = new boolean[0];
    private final Pushers pushers;
    private final OwnSegments own;
    private final PeerSegments peers;
    /**
     * Where large messages from ordinary memory are packed for a rank of this host; {@code null}
     * without shared buffers.
     */
    private final Bounces bounces;

    /**
     * Installs the engine's handlers on {@code transport}'s endpoint.
     *
     * @param control where FIN, BYE and ABORT go, and lost ranks are told
     * @param own this rank's shared buffers, whose large messages go by reference to the ranks it
     *     reaches over shm; {@code null} for none
     * @param peers where the other ranks' shared buffers are read; {@code null} to ask for all data
     */
    public PointToPoint(Transport transport, Limits limits, ControlListener control, OwnSegments own,
                        PeerSegments peers) {
        this.transport = transport;
        this.limits = limits;
        this.control = control;
        this.own = own;
        this.peers = peers;
        this.bounces = own == null ? null : new Bounces(own, BOUNCE_BYTES);
        this.matcher = new Matcher(limits, transport.worldRank());
        this.protocol = new Protocol(transport, table, limits, peers);
        this.pushers = new Pushers(transport.worldRank());
        Inbound inbound = new Inbound(matcher, protocol, control, this, pushers);
        transport.handler(inbound::inline);
        transport.listener(this::lose);
    }

    /** @return this rank's shared buffers, or {@code null} without them */
    public OwnSegments ownSegments() {
        return own;
    }

    /** @return where other ranks' shared buffers are mapped, or {@code null} without them */
    public PeerSegments peerSegments() {
        return peers;
    }

    /**
     * @return the bounce buffers this rank packs large messages into for ranks of its host to read,
     *     or {@code null} without shared buffers
     */
    public Bounces bounces() {
        return bounces;
    }

    /** Stops the engine's own threads; the transport closes after. */
    public void close() {
        pushers.close();
    }

    /** @return the engine's parameters */
    public Limits limits() {
        return limits;
    }

    /**
     * Eager messages that may lend ({@code lend}) do from this size, where their data lies as the
     * wire carries it: a context keeps a larger RSR's bytes where they are, while it copies smaller
     * ones, so a smaller loan would only make the send wait for its acknowledgement.
     */
    public static final int LEND_ABOVE = 16 * 1024;

    /**
     * The most bytes of bounce buffers a rank keeps: a large message from ordinary memory to a rank
     * of this host is packed into one, for the receiver to read where it lies, while they hold no
     * more than this; four messages of 4 MiB, or one of 16 MiB.
     */
    public static final long BOUNCE_BYTES = 32L << 20;

    /**
     * The largest message packed into a bounce buffer. The receiver reads it only once it is
     * packed, where chunks overlap packing and unpacking: a ping-pong of 2 MiB of doubles took
     * 335 µs one way through a bounce buffer against 661–684 in chunks, one of 4 MiB 671–676
     * against 575–595 (docs/performance-notes.md#combining-stages).
     */
    static final int BOUNCE_LARGEST = 2 << 20;

    /**
     * Starts a send. A message up to the eager limit is handed over before this returns; a larger
     * one, or a synchronous one, completes when its receiver answers.
     *
     * @param context the communicator's context id
     * @param destination the receiver's rank in the job
     * @param rank the sender's rank in the communicator, for the status
     * @param synchronous whether to complete only once a receive matched the message
     * @return the send, complete or not
     * @throws MpiError if the rank failed or the receiver cannot be reached
     */
    public Operation send(int context, int destination, int rank, int tag, Memory memory, Typemap map, long count,
                          boolean synchronous) {
        return send(context, destination, rank, tag, memory, map, count, synchronous, null, Handover.COPY);
    }

    /** How an eager message's data goes: every larger one goes by reference where it can, else lent. */
    public enum Handover {
        /** Copied into the message: the send completes as it is handed over. */
        COPY,
        /**
         * By reference from a buffer the host's ranks share, read where it lies, the send completing
         * once it was; else copied. For a sender that waits for its receiver anyway.
         */
        REFER,
        /**
         * By reference from a shared buffer, else lent to the message: either way the send completes
         * once the receiver acknowledged it. For sends whose wait overlaps other work, such as a
         * pipeline's segments.
         */
        LEND
    }

    /**
     * Starts a send that is part of {@code whole} (a step of a collective), or of nothing if
     * {@code null}: the thread waiting for the whole pushes a large message's data.
     *
     * @param handover how an eager message's data goes, over {@link #LEND_ABOVE} bytes; a rendezvous
     *     message always lends what it can
     */
    public Operation send(int context, int destination, int rank, int tag, Memory memory, Typemap map, long count,
                          boolean synchronous, Operation whole, Handover handover) {
        failIfFailed();
        long length = map.size() * count;
        if (length > limits.eagerLimit()) {
            Startpoint[] links = transport.route(context);
            SharedBytes shared = shared(memory, map, links, destination);
            if (shared == null && bounces != null && length <= BOUNCE_LARGEST && !Memories.liesAsWire(memory, map)
                && Limits.overShm(Transport.stack(links, destination))) {
                // Packed anyway: once, into a buffer the receiver reads, rather than chunk by chunk
                // into buffers the ring copies. Data that lies as the wire carries it is lent to
                // its chunks instead, which the ring copies as the receiver unpacks the last ones.
                Bounces.Bounce bounce = bounces.take(length);
                if (bounce != null) {
                    return sendBounced(context, destination, rank, tag, memory, map, count, whole, links, bounce);
                }
            }
            return sendRendezvous(context, destination, rank, tag, memory, map, count, whole, links, shared, null);
        }
        boolean handedOver = handover != Handover.COPY && !synchronous && length > LEND_ABOVE;
        if (handedOver && own != null) {
            // Such a message completes at its receiver's answer anyway: from a shared buffer it may
            // as well go by reference, read where it lies in one copy.
            Startpoint[] links = transport.route(context);
            SharedBytes shared = shared(memory, map, links, destination);
            if (shared != null) {
                return sendRendezvous(context, destination, rank, tag, memory, map, count, whole, links, shared, null);
            }
        }
        if (handedOver && handover == Handover.LEND) {
            SendOperation lending = sendLent(context, destination, rank, tag, memory, map, count);
            if (lending != null) {
                return lending;
            }
        }
        SendOperation s = null;
        long id = 0;
        MessageBuffer m = transport.take();
        try {
            if (synchronous) {
                s = new SendOperation(context, destination, rank, tag, memory, map, count);
                id = table.add(s);
                HeaderCodec.eagerSync(m, context, transport.worldRank(), tag, id);
            } else {
                HeaderCodec.eager(m, context, transport.worldRank(), tag);
            }
            Cursor.packAll(memory, map, count, new MessageWriter(m));
            transport.send(transport.route(context), destination, Header.INLINE_HANDLER, m);
        } catch (MpiError e) {
            if (s != null) {
                table.remove(id);
            }
            throw e;
        } finally {
            transport.give(m);
        }
        return s != null ? s : new Completed(rank, tag, length, null);
    }

    /**
     * Packs a large message into a bounce buffer, which the receiver reads as a shared buffer, and
     * sends its RTS; the buffer goes back to the pool once the send completes.
     */
    private SendOperation sendBounced(int context, int destination, int rank, int tag, Memory memory, Typemap map,
                                      long count, Operation whole, Startpoint[] links, Bounces.Bounce bounce) {
        try {
            Cursor.packAll(memory, map, count, new BufferWriter(bounce.buffer()));
        } catch (RuntimeException | Error e) {
            bounces.give(bounce); // nothing went: nobody reads it
            throw e;
        }
        try {
            return sendRendezvous(context, destination, rank, tag, memory, map, count, whole, links, bounce.at(),
                bounce);
        } catch (RuntimeException | Error e) {
            bounces.discard(bounce); // the RTS may have gone, and its receiver may read the buffer yet
            throw e;
        }
    }

    /**
     * Sends an RTS: the data follows when the receiver answers CTS, or, if {@code shared} says where
     * it lies, the receiver reads it there and answers SYNC_ACK.
     *
     * @param bounce the bounce buffer {@code shared} is in, which the send gives back as it
     *     completes; or {@code null}
     */
    private SendOperation sendRendezvous(int context, int destination, int rank, int tag, Memory memory, Typemap map,
                                         long count, Operation whole, Startpoint[] links, SharedBytes shared,
                                         Bounces.Bounce bounce) {
        SendOperation s = new SendOperation(context, destination, rank, tag, memory, map, count);
        if (whole != null) {
            s.partOf(whole);
        }
        long id = table.add(s);
        if (bounce != null) {
            s.bouncedThrough(bounces, bounce);
        }
        MessageBuffer m = transport.take();
        try {
            if (shared != null) {
                HeaderCodec.rtsShared(m, context, transport.worldRank(), tag, id, s.length(), shared);
            } else {
                HeaderCodec.rts(m, context, transport.worldRank(), tag, id, s.length());
            }
            transport.send(links, destination, Header.INLINE_HANDLER, m);
        } catch (MpiError e) {
            table.remove(id);
            throw e;
        } finally {
            transport.give(m);
        }
        return s;
    }

    /**
     * @return where a message's bytes lie, if they lie as the wire carries them, in one run, in a
     *     shared buffer of this rank's, and go to a rank of this host: one reached over shm, which
     *     reaches only contexts that map files of the same directory
     */
    private SharedBytes shared(Memory memory, Typemap map, Startpoint[] links, int destination) {
        return own == null || !Limits.overShm(Transport.stack(links, destination)) ? null : shared(memory, map);
    }

    /**
     * @return where data lies, if it lies as the wire carries it, in one run, in a shared buffer of
     *     this rank's; else {@code null}
     */
    public SharedBytes shared(Memory memory, Typemap map) {
        Memory.Origin origin = own == null ? null : Memories.wireOrigin(memory, map);
        return origin == null ? null : own.find(origin.buffer(), origin.offset());
    }

    /**
     * Sends an eager message whose data lies in memory as the wire carries it, lent to the message
     * rather than packed into it: one copy fewer, and the send completes once the receiver
     * acknowledged it, when the buffer is free again.
     *
     * @return the send, or {@code null}, with nothing sent, if the data must be packed
     */
    private SendOperation sendLent(int context, int destination, int rank, int tag, Memory memory, Typemap map,
                                   long count) {
        Cursor cursor = new Cursor(memory, map, count);
        ByteBuffer lent = cursor.lend(cursor.total());
        if (lent == null || !cursor.finished()) {
            return null;
        }
        SendOperation s = new SendOperation(context, destination, rank, tag, memory, map, count);
        MessageBuffer m = transport.take();
        try {
            HeaderCodec.eager(m, context, transport.worldRank(), tag);
            m.putLent(lent, 0, lent.capacity(), s.lent());
            transport.send(transport.route(context), destination, Header.INLINE_HANDLER, m);
        } finally {
            transport.give(m.clear()); // lets go of the loan: the links hold it until acknowledged
        }
        s.pushed();
        return s;
    }

    /**
     * Posts a receive; it may complete at once with a message that arrived before it.
     *
     * @param source the sender's rank in the job, or {@link #ANY}
     * @param tag the tag, or {@link #ANY}
     * @param ranks translates the sender's rank for the status, and rejects non-members
     * @throws MpiError if the rank failed
     */
    public Operation receive(int context, int source, int tag, Memory memory, Typemap map, long count, RankMap ranks) {
        ReceiveOperation r = new ReceiveOperation(context, source, tag, memory, map, count, ranks, matcher);
        Unexpected u = matcher.post(r);
        if (u != null) {
            take(r, u);
            return r;
        }
        // A rank lost before the receive was posted was not there for lose() to fail it.
        MpiError gone = transport.lost(source, ranks);
        if (gone != null && matcher.withdraw(r)) {
            r.fail(gone);
        }
        return r;
    }

    /**
     * Receives a message claimed by {@link #claim}.
     *
     * @throws MpiError if the rank failed
     */
    public Operation receive(Unexpected claimed, Memory memory, Typemap map, long count, RankMap ranks) {
        failIfFailed();
        ReceiveOperation r = new ReceiveOperation(claimed.envelope.context(), claimed.sourceWorldRank(),
            claimed.tag(), memory, map, count, ranks, matcher);
        take(r, claimed);
        return r;
    }

    private void take(ReceiveOperation r, Unexpected u) {
        if (u.data != null) {
            protocol.deliver(r, u.envelope, new ArrayReader(u.data, 0, u.data.length), u.data.length);
        } else {
            protocol.answer(r, u.envelope);
        }
    }

    /**
     * Looks for a message a receive with these arguments would match, and leaves it queued.
     *
     * @param block whether to wait until there is one
     * @return the message, or {@code null} if {@code block} is false and there is none
     * @throws MpiError if the rank failed
     */
    public Unexpected probe(int context, int source, int tag, boolean block, RankMap ranks) {
        return look(context, source, tag, block, false, ranks);
    }

    /**
     * Like {@link #probe}, but removes the message from the queue, so only {@link #receive(Unexpected,
     * Memory, Typemap, long, RankMap)} can receive it ({@code MPI_Mprobe}).
     */
    public Unexpected claim(int context, int source, int tag, boolean block, RankMap ranks) {
        return look(context, source, tag, block, true, ranks);
    }

    /** @throws MpiError if a blocking probe waits on a lost rank */
    private Unexpected look(int context, int source, int tag, boolean block, boolean remove, RankMap ranks) {
        Unexpected u = remove ? matcher.take(context, source, tag) : matcher.peek(context, source, tag);
        if (u == null && !block) {
            limits.idle().receiveOnce();
            return remove ? matcher.take(context, source, tag) : matcher.peek(context, source, tag);
        }
        if (u != null) {
            return u;
        }
        Thread me = Thread.currentThread();
        matcher.watch(me, true);
        try {
            for (int attempt = 0; ; attempt++) {
                u = remove ? matcher.take(context, source, tag) : matcher.peek(context, source, tag);
                if (u != null) {
                    return u;
                }
                MpiError gone = transport.lost(source, ranks);
                if (gone != null) {
                    throw gone;
                }
                if (!limits.idle().pause(attempt)) {
                    LockSupport.park(matcher);
                }
            }
        } finally {
            matcher.watch(me, false);
        }
    }

    /**
     * Waits until {@code met} holds, where no message says so: for ranks that meet in memory they
     * share. Receives and pauses as a blocking probe does, counting as waiting for the
     * {@link Liveness} probes; then parks for a while at a time, as nothing unparks it, from
     * {@value #MEETING_NAP_NANOS} ns up to a millisecond.
     *
     * @param ranks the ranks whose doing {@code met} waits for
     * @throws MpiError if one of {@code ranks} is lost meanwhile, or this rank's messaging failed
     *     ({@link #fail}: the job aborted)
     */
    public void await(BooleanSupplier met, RankMap ranks) {
        Thread me = Thread.currentThread();
        matcher.watch(me, true);
        try {
            long nap = MEETING_NAP_NANOS;
            for (int attempt = 0; !met.getAsBoolean(); attempt++) {
                MpiError gone = transport.lost(ANY, ranks);
                if (gone != null) {
                    throw gone;
                }
                failIfFailed(); // the job aborted, or this rank's messaging stopped
                if (!limits.idle().pause(attempt)) {
                    LockSupport.parkNanos(matcher, nap);
                    nap = Math.min(2 * nap, MEETING_NAP_LIMIT_NANOS);
                }
            }
        } finally {
            matcher.watch(me, false);
        }
    }

    /** The first nap of a thread that waits on shared memory once its busy budget is spent. */
    static final long MEETING_NAP_NANOS = 20_000;
    private static final long MEETING_NAP_LIMIT_NANOS = 1_000_000;

    /**
     * Sets the links the messages of communicator context {@code context} take: their own, as
     * {@code hints} say, or the rank's with {@link LinkHints#NONE}.
     *
     * @param members the communicator's ranks, as ranks of the job
     * @param fence whether messages may have gone by the old links already: then each member first
     *     confirms it has them all (FENCE, answered by SYNC_ACK), so none is overtaken by one on
     *     the new links. Sends on the communicator from other threads meanwhile may take either.
     * @throws MpiError {@code ERR_INFO_VALUE} naming a member the hints leave no way to; the old
     *     links stay. {@code ERR_PROC_ABORTED} if a member is lost.
     */
    public void links(int context, LinkHints hints, int[] members, boolean fence) {
        Startpoint[] next = hints.none() ? null : transport.hinted(hints, members);
        if (fence) {
            fence(transport.route(context), members);
        }
        transport.route(context, next);
    }

    private void fence(Startpoint[] old, int[] members) {
        List<SendOperation> fences = new ArrayList<>();
        MessageBuffer m = transport.take();
        try {
            for (int member : members) {
                if (member == transport.worldRank()) {
                    continue;
                }
                SendOperation f = new SendOperation(-1, member, 0, 0, null, NOTHING, 0);
                long id = table.add(f);
                fences.add(f);
                m.clear();
                HeaderCodec.fence(m, transport.worldRank(), id);
                try {
                    transport.send(old, member, Header.INLINE_HANDLER, m);
                } catch (MpiError e) {
                    table.remove(id);
                    throw e;
                }
            }
        } finally {
            transport.give(m);
        }
        for (SendOperation f : fences) {
            f.await(limits.idle());
            if (f.error() != null) {
                throw f.error();
            }
        }
    }

    /**
     * @return for each rank of a communicator (as ranks of the job, in its order), the stack its
     *     messages take from this rank, or {@code none} if no entry of the rank's table is usable
     */
    /**
     * @param ranks for each rank of the job, whether it runs at another named site than this one:
     *     a collective's large sends to it go side by side with the others such
     */
    public void far(boolean[] ranks) {
        far = ranks.clone();
    }

    /** @return whether rank {@code worldRank} of the job runs at another named site than this one */
    boolean far(int worldRank) {
        boolean[] f = far;
        return worldRank < f.length && f[worldRank];
    }

    public List<String> stacks(int context, int[] members) {
        List<String> out = new ArrayList<>(members.length);
        for (int m : members) {
            out.add(explain(context, m).chosen().map(e -> e.descriptor().stack()).orElse("none"));
        }
        return out;
    }

    /**
     * @return the base method the messages of communicator context {@code context} take to rank
     *     {@code worldRank} of the job (e.g. {@code shm}), or {@code null} if none reaches it
     */
    public String method(int context, int worldRank) {
        return explain(context, worldRank).chosen().map(e -> e.descriptor().method()).orElse(null);
    }

    private Explanation explain(int context, int worldRank) {
        return transport.explain(context, worldRank);
    }

    /**
     * @return the stack the messages of communicator context {@code context} take to rank
     *     {@code worldRank} of the job, and why: each entry of that rank's table, chosen or why not
     */
    public String explainLine(int context, int worldRank) {
        Explanation e = explain(context, worldRank);
        return e.chosen().map(c -> c.descriptor().stack()).orElse("nothing") + ": " + Transport.line(e);
    }

    /** @return whether an operation or a probe waits for another rank */
    public boolean waiting() {
        return matcher.waiting() || !table.isEmpty();
    }

    /**
     * Rank {@code worldRank} is lost: fails every receive, probe and send that waits on it, and
     * tells the control listener. Later operations on it fail as they start.
     */
    private void lose(int worldRank, MpiError error) {
        for (ReceiveOperation r : matcher.lose(worldRank)) {
            r.fail(error);
        }
        for (Operation op : table.drain(op -> op instanceof SendOperation s ? s.destination == worldRank
                : op instanceof ReceiveOperation r && r.awaits(worldRank))) {
            if (op instanceof SendOperation s) {
                s.fail(error);
            } else {
                ((ReceiveOperation) op).fail(error);
            }
        }
        control.lost(worldRank, error);
    }

    /** @return the failure that stopped this rank's messaging, or {@code null} */
    public MpiError failure() {
        return matcher.failure();
    }

    /** Fails every operation in flight, and every later one, with {@code error}. */
    public void fail(MpiError error) {
        for (ReceiveOperation r : matcher.fail(error)) {
            r.fail(error);
        }
        for (Operation op : table.drain()) {
            if (op instanceof ReceiveOperation r) {
                r.fail(error);
            } else if (op instanceof SendOperation s) {
                s.fail(error);
            }
        }
    }

    private void failIfFailed() {
        MpiError f = matcher.failure();
        if (f != null) {
            throw f;
        }
    }
}
