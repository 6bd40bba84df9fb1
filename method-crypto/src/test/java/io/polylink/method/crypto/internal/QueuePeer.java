package io.polylink.method.crypto.internal;

import io.polylink.ContextId;
import io.polylink.spi.PeerLocation;
import io.polylink.spi.TransformPeer;
import io.polylink.spi.TransformSession;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** One end of a connection as a session sees it, keeping the handshakes it sends for the test to deliver. */
final class QueuePeer implements TransformPeer {

    private final ContextId self;
    private final ContextId peer;
    private final PeerLocation location;
    final List<ByteBuffer> sent = new ArrayList<>();

    /** A peer this context or, if another, one that did not say where it runs. */
    QueuePeer(ContextId self, ContextId peer) {
        this(self, peer, self.equals(peer) ? PeerLocation.SAME_CONTEXT : PeerLocation.OTHER_SITE);
    }

    QueuePeer(ContextId self, ContextId peer, PeerLocation location) {
        this.self = self;
        this.peer = peer;
        this.location = location;
    }

    @Override
    public ContextId self() {
        return self;
    }

    @Override
    public ContextId peer() {
        return peer;
    }

    @Override
    public String method() {
        return "test";
    }

    @Override
    public PeerLocation location() {
        return location;
    }

    @Override
    public void sendHandshake(ByteBuffer message) {
        sent.add(ByteBuffer.allocate(message.remaining()).put(message).flip());
    }

    /** Hands every handshake sent so far to {@code to}, in order, and forgets them. */
    void deliverTo(TransformSession to) {
        for (ByteBuffer message : sent) {
            to.onHandshake(message.duplicate());
        }
        sent.clear();
    }
}
