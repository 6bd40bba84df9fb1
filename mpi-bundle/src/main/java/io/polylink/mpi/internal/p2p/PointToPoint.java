package io.polylink.mpi.internal.p2p;

import io.polylink.MessageBuffer;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.ArrayReader;
import io.polylink.mpi.internal.datatype.Cursor;
import io.polylink.mpi.internal.datatype.Memory;
import io.polylink.mpi.internal.datatype.MessageWriter;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.request.Completed;
import io.polylink.mpi.internal.request.Operation;
import io.polylink.mpi.internal.wire.Header;
import io.polylink.mpi.internal.wire.HeaderCodec;
import java.util.concurrent.locks.LockSupport;

/**
 * Point-to-point messaging in terms of the job's ranks and context ids: what communicators call,
 * after they checked their arguments and translated ranks. Thread-safe.
 */
public final class PointToPoint {

    /** Matches any source or any tag. */
    public static final int ANY = -1;

    private final Transport transport;
    private final Limits limits;
    private final Matcher matcher;
    private final RequestTable table = new RequestTable();
    private final Protocol protocol;

    /**
     * Installs the engine's handlers on {@code transport}'s endpoint.
     *
     * @param control where FIN, BYE and ABORT go
     */
    public PointToPoint(Transport transport, Limits limits, ControlListener control) {
        this.transport = transport;
        this.limits = limits;
        this.matcher = new Matcher(limits, transport.worldRank());
        this.protocol = new Protocol(transport, table, limits);
        Inbound inbound = new Inbound(matcher, protocol, control, this);
        transport.handlers(inbound::inline, inbound::executor);
    }

    /** @return the engine's parameters */
    public Limits limits() {
        return limits;
    }

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
        failIfFailed();
        long length = map.size() * count;
        if (length > limits.eagerLimit()) {
            SendOperation s = new SendOperation(destination, rank, tag, memory, map, count);
            long id = table.add(s);
            MessageBuffer m = transport.take();
            try {
                HeaderCodec.rts(m, context, transport.worldRank(), tag, id, length);
                transport.send(destination, Header.INLINE_HANDLER, m);
            } catch (MpiError e) {
                table.remove(id);
                throw e;
            } finally {
                transport.give(m);
            }
            return s;
        }
        SendOperation s = null;
        long id = 0;
        MessageBuffer m = transport.take();
        try {
            if (synchronous) {
                s = new SendOperation(destination, rank, tag, memory, map, count);
                id = table.add(s);
                HeaderCodec.eagerSync(m, context, transport.worldRank(), tag, id);
            } else {
                HeaderCodec.eager(m, context, transport.worldRank(), tag);
            }
            new Cursor(memory, map, count).pack(new MessageWriter(m), length);
            transport.send(destination, Header.INLINE_HANDLER, m);
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
    public Unexpected probe(int context, int source, int tag, boolean block) {
        return look(context, source, tag, block, false);
    }

    /**
     * Like {@link #probe}, but removes the message from the queue, so only {@link #receive(Unexpected,
     * Memory, Typemap, long, RankMap)} can receive it ({@code MPI_Mprobe}).
     */
    public Unexpected claim(int context, int source, int tag, boolean block) {
        return look(context, source, tag, block, true);
    }

    private Unexpected look(int context, int source, int tag, boolean block, boolean remove) {
        Unexpected u = remove ? matcher.take(context, source, tag) : matcher.peek(context, source, tag);
        if (u != null || !block) {
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
                if (attempt > limits.idle().spins()) {
                    LockSupport.park(matcher);
                } else {
                    Thread.onSpinWait();
                }
            }
        } finally {
            matcher.watch(me, false);
        }
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
