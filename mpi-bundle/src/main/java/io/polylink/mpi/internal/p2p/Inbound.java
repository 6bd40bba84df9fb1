package io.polylink.mpi.internal.p2p;

import io.polylink.Endpoint;
import io.polylink.MalformedMessageException;
import io.polylink.MessageBuffer;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.MessageReader;
import io.polylink.mpi.internal.request.Operation;
import io.polylink.mpi.internal.wire.Envelope;
import io.polylink.mpi.internal.wire.Header;
import io.polylink.mpi.internal.wire.HeaderCodec;

/**
 * The engine's handler: decodes each message's header and acts on it. It runs on the thread that
 * delivers the message (a method's I/O thread, an application thread receiving for itself, or the
 * sender's, for a message to this rank) and never blocks: the data a CTS asks for goes from the
 * thread waiting for the send, or from a {@link Pushers} thread. Bad input throws
 * {@link MalformedMessageException}, which the context counts and logs; nothing else escapes.
 */
final class Inbound {

    private final Matcher matcher;
    private final Protocol protocol;
    private final ControlListener control;
    private final PointToPoint owner;
    private final Pushers pushers;

    Inbound(Matcher matcher, Protocol protocol, ControlListener control, PointToPoint owner, Pushers pushers) {
        this.matcher = matcher;
        this.protocol = protocol;
        this.control = control;
        this.owner = owner;
        this.pushers = pushers;
    }

    void inline(Endpoint endpoint, MessageBuffer m) {
        Envelope e = HeaderCodec.decode(m);
        switch (e.kind()) {
            case Header.EAGER -> eager(e, m);
            case Header.RTS -> rts(e);
            case Header.CTS -> cts(e);
            case Header.DATA -> data(e, m);
            case Header.SYNC_ACK -> syncAck(e);
            case Header.FIN, Header.BYE -> control.farewell(e.kind(), e.source());
            case Header.ABORT -> control.aborted(e.source(), (int) e.bytes());
            case Header.PING -> {
                // Its arrival is all: the sender's link to this rank works.
            }
            case Header.FENCE -> fence(e);
            default -> throw new MalformedMessageException("malformed mpi message: " + e + " on the inline handler");
        }
    }

    /**
     * The data is owed now: to the thread that waits for the send, else to a pusher; a collective's
     * send to a rank at another site to a pusher of its own as well (see {@link Pushers}).
     */
    private void cts(Envelope e) {
        Operation op = protocol.table().remove(e.request());
        if (!(op instanceof SendOperation s)) {
            throw new MalformedMessageException("malformed mpi message: " + e + " names no send waiting for it");
        }
        if (!s.clear(protocol, e.reply(), e.bytes())) {
            pushers.push(s);
        } else if (s.isPart() && owner.far(s.destination)) {
            pushers.pushFar(s);
        }
    }

    private void eager(Envelope e, MessageBuffer m) {
        int bytes = m.remaining();
        ReceiveOperation r = matcher.arrive(e, m);
        if (r != null) {
            protocol.deliver(r, e, new MessageReader(m), bytes);
        } else {
            checkFailure();
        }
    }

    private void rts(Envelope e) {
        ReceiveOperation r = matcher.arrive(e, null);
        if (r != null) {
            protocol.answer(r, e);
        } else {
            checkFailure();
        }
    }

    private void data(Envelope e, MessageBuffer m) {
        Operation op = protocol.table().get(e.request());
        if (!(op instanceof ReceiveOperation r)) {
            throw new MalformedMessageException("malformed mpi message: " + e + " names no receive waiting for data");
        }
        if (r.takeData(e.bytes(), new MessageReader(m), m.remaining(), e.has(Header.FLAG_LAST))) {
            protocol.table().remove(e.request());
        }
    }

    private void fence(Envelope e) {
        if (e.source() >= protocol.worldSize()) {
            throw new MalformedMessageException("malformed mpi message: " + e + " from a rank beyond the job's "
                + protocol.worldSize());
        }
        protocol.acknowledge(e.source(), e.request());
    }

    private void syncAck(Envelope e) {
        Operation op = protocol.table().remove(e.request());
        if (!(op instanceof SendOperation s)) {
            throw new MalformedMessageException("malformed mpi message: " + e + " names no send waiting for it");
        }
        s.done();
    }

    /** A message the matcher could not keep failed the rank: every operation in flight fails with it. */
    private void checkFailure() {
        MpiError failure = matcher.failure();
        if (failure != null) {
            owner.fail(failure);
        }
    }
}
