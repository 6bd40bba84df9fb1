package io.polylink.mpi.internal.p2p;

import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import java.nio.ByteBuffer;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.BufferReader;
import io.polylink.mpi.internal.datatype.BufferWriter;
import io.polylink.mpi.internal.datatype.Cursor;
import io.polylink.mpi.internal.datatype.WireReader;
import io.polylink.mpi.internal.shared.PeerSegments;
import io.polylink.mpi.internal.wire.Envelope;
import io.polylink.mpi.internal.wire.Header;
import io.polylink.mpi.internal.wire.HeaderCodec;

/**
 * What happens once a message and a receive met, whoever came second, and the sender's side of a
 * rendezvous: unpacking an eager message and acknowledging a synchronous one, answering an RTS,
 * pushing a large message's data. Called on the thread that made the match (an I/O thread or an
 * application thread) and, for the push, on the thread that claimed it.
 */
final class Protocol {

    /**
     * A rendezvous of at most this many bytes goes out whole before the pushing thread reads its
     * own inbox; a larger one reads it between chunks. Half of shm's default inbox: two ranks
     * pushing such messages at each other each find room for the whole message in the other's
     * inbox, and then each takes the other's. Reading between chunks there made the rank that fell
     * behind take several of the other's chunks at each read, fall further behind, and push its
     * last chunks alone while the other waited: a 512 KiB exchange took about a fifth longer. Past
     * what an inbox holds, ranks that pushed without reading would wait on each other's full inbox
     * until the methods' own threads took over (docs/performance-notes.md#exchange-push-ahead).
     */
    static final long PUSH_AHEAD_BYTES = 512 * 1024;

    private final Transport transport;
    private final RequestTable table;
    private final Limits limits;
    /** Staged chunks over shm, and over other methods: each sized to its chunks. */
    private final Staging staging;
    private final Staging streamStaging;

    /** Where other ranks' shared buffers are read; {@code null} if none are. */
    private final PeerSegments peers;

    Protocol(Transport transport, RequestTable table, Limits limits, PeerSegments peers) {
        this.transport = transport;
        this.table = table;
        this.limits = limits;
        this.peers = peers;
        this.staging = new Staging(limits.chunk(), kept(limits.chunk()));
        this.streamStaging = new Staging(limits.streamChunk(), kept(limits.streamChunk()));
    }

    /** Staged chunks kept for reuse: 2 MiB of them, enough for a large message's chunks in flight at once. */
    private static int kept(int chunk) {
        return Math.max(2, (2 << 20) / chunk);
    }

    RequestTable table() {
        return table;
    }

    int worldSize() {
        return transport.worldSize();
    }

    /** A receive matched an EAGER message whose data {@code data} holds: completes it. */
    void deliver(ReceiveOperation r, Envelope e, WireReader data, long bytes) {
        r.takeEager(e, data, bytes);
        if (e.has(Header.FLAG_SYNC)) {
            acknowledge(e.source(), e.request());
        }
    }

    /**
     * Answers a synchronous-mode message or a FENCE with SYNC_ACK. Nothing waits here for the
     * answer, so a sender that cannot be reached only misses it (and is lost).
     */
    void acknowledge(int to, long senderRequest) {
        MessageBuffer m = transport.take();
        try {
            HeaderCodec.syncAck(m, senderRequest);
            transport.send(to, Header.INLINE_HANDLER, m);
        } catch (MpiError unreachable) {
            // said above
        } finally {
            transport.give(m);
        }
    }

    /**
     * A receive matched an RTS: copies the data from where it lies, if the RTS says where and this
     * rank can read it there, else asks the sender for it, or for none if the buffer has no room.
     */
    void answer(ReceiveOperation r, Envelope rts) {
        if (rts.shared() != null && peers != null && takeShared(r, rts)) {
            return;
        }
        long accepted = r.beginRendezvous(rts);
        long id = accepted == 0 ? 0 : table.add(r);
        MessageBuffer m = transport.take();
        try {
            HeaderCodec.cts(m, rts.request(), id, accepted);
            transport.send(rts.source(), Header.INLINE_HANDLER, m);
        } catch (MpiError failed) {
            if (accepted > 0) {
                table.remove(id);
            }
            r.fail(failed);
            return;
        } finally {
            transport.give(m);
        }
        if (accepted == 0) {
            r.endEmptyRendezvous();
        }
    }

    /**
     * Copies a message from the sender's shared buffer into the receive's and tells the sender, whose
     * send then completes: one copy where a pushed message takes two (into the link, out of it).
     *
     * @return whether it did; if not, nothing was completed and the data must be asked for
     */
    private boolean takeShared(ReceiveOperation r, Envelope rts) {
        ByteBuffer bytes = peers.bytes(rts.shared(), Math.min(rts.bytes(), r.capacity));
        if (bytes == null) {
            return false;
        }
        try {
            r.takeEager(rts, new BufferReader(bytes), rts.bytes());
        } catch (InternalError cutShort) {
            // The sender's file lost pages under the copy (truncated by someone): a read there faults.
            // What was copied is written over when the data comes the usual way.
            peers.forget(rts.shared());
            return false;
        }
        acknowledge(rts.source(), rts.request());
        return true;
    }

    /**
     * Sends the data the receiver asked for, in chunks that each end on a whole primitive, and
     * completes the send. Data that already lies in memory as the wire has it (bytes, or values in
     * the wire's byte order in a buffer) is lent to its chunks rather than packed into them: the
     * send then completes once the receiver acknowledged the last of them
     * ({@link SendOperation#lent}). Other data (typed arrays, derived datatypes) is packed into a
     * {@link Staging} buffer lent in turn, so the send completes once pushed. Runs on the thread
     * that claimed the push (see {@link SendOperation}).
     */
    void push(SendOperation s, long receiverRequest, long accepted) {
        long limit = s.wholeWithin(accepted);
        if (limit == 0) {
            s.done();
            return;
        }
        Cursor cursor = s.cursor();
        // One message's chunks take one set of links, whatever a communicator's hints do meanwhile:
        // the receiver takes them in order.
        Startpoint[] links = transport.route(s.context);
        int chunk = limits.chunkOver(Transport.stack(links, s.destination));
        Staging stage = chunk == limits.chunk() ? staging : streamStaging;
        // Every chunk is lent (from where its data lies, or staged), so its message holds a header.
        MessageBuffer m = transport.take();
        boolean readBetween = limit > PUSH_AHEAD_BYTES;
        try {
            long offset = 0;
            while (offset < limit) {
                long budget = Math.min(chunk, limit - offset);
                ByteBuffer data = cursor.lend(budget);
                int bytes;
                Runnable back;
                if (data != null) {
                    bytes = data.capacity();
                    back = s.lent();
                } else {
                    data = stage.take();
                    bytes = (int) cursor.pack(new BufferWriter(data), Math.min(budget, data.capacity()));
                    back = stage.back(data);
                }
                m.clear();
                HeaderCodec.data(m, receiverRequest, offset, offset + bytes == limit);
                m.putLent(data, 0, bytes, back);
                offset += bytes;
                transport.send(links, s.destination, Header.INLINE_HANDLER, m);
                if (readBetween) {
                    // A peer pushing to this rank at the same time waits for room in its inbox, and
                    // would otherwise wait for the methods' own threads, which stand back while this
                    // rank's threads receive.
                    limits.idle().receiveOnce();
                }
            }
            m.clear(); // lets go of the last chunk's loan before the send can complete
            s.pushed();
        } catch (MpiError failed) {
            s.fail(failed);
        } finally {
            transport.give(m.clear());
        }
    }
}
