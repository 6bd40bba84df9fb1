package io.polylink.mpi.internal.p2p;

import io.polylink.mpi.internal.wire.Envelope;

/**
 * A message that arrived before a receive matched it: an EAGER one with a copy of its data, or
 * the RTS of a large one, whose data stays with the sender until a receive answers it.
 */
public final class Unexpected {

    final Envelope envelope;
    /** EAGER: the data; RTS: {@code null}. */
    final byte[] data;
    Unexpected next;
    Unexpected previous;

    Unexpected(Envelope envelope, byte[] data) {
        this.envelope = envelope;
        this.data = data;
    }

    /** @return the sender's rank in the job */
    public int sourceWorldRank() {
        return envelope.source();
    }

    /** @return the message's tag */
    public int tag() {
        return envelope.tag();
    }

    /** @return the message's length in bytes */
    public long length() {
        return data != null ? data.length : envelope.bytes();
    }

    boolean matches(int context, int source, int tag) {
        return envelope.context() == context
            && (source == PointToPoint.ANY || source == envelope.source())
            && (tag == PointToPoint.ANY || tag == envelope.tag());
    }
}
