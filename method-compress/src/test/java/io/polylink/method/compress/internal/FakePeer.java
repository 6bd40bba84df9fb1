package io.polylink.method.compress.internal;

import io.polylink.ContextId;
import io.polylink.spi.PeerLocation;
import io.polylink.spi.TransformPeer;
import java.nio.ByteBuffer;

/** The two ends of a connection as a session sees them, without a connection behind. */
record FakePeer(ContextId self, ContextId peer, String method, PeerLocation location) implements TransformPeer {

    /** A peer this context or, if another, one that did not say where it runs. */
    static FakePeer between(ContextId self, ContextId peer) {
        return new FakePeer(self, peer, "test", self.equals(peer) ? PeerLocation.SAME_CONTEXT : PeerLocation.OTHER_SITE);
    }

    /** Another context, running there. */
    static FakePeer at(PeerLocation location) {
        return new FakePeer(ContextId.random(), ContextId.random(), "test", location);
    }

    @Override
    public void sendHandshake(ByteBuffer message) {
        throw new AssertionError("lz4 needs no handshake");
    }
}
