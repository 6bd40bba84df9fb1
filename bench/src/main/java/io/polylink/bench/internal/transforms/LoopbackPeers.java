package io.polylink.bench.internal.transforms;

import io.polylink.ContextId;
import io.polylink.spi.Transform;
import io.polylink.spi.PeerLocation;
import io.polylink.spi.TransformPeer;
import io.polylink.spi.TransformSession;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Queue;

/**
 * Two sessions of one transform joined as the two ends of one connection, without a core or a
 * method: each end's handshake messages are handed to the other session, so a key exchange
 * completes before the first frame, and what one end encodes the other can decode.
 */
final class LoopbackPeers implements AutoCloseable {

    /** One end: queues what its session sends until the other session exists to take it. */
    private record End(ContextId self, ContextId peer, Queue<ByteBuffer> sent) implements TransformPeer {

        End(ContextId self, ContextId peer) {
            this(self, peer, new ArrayDeque<>());
        }

        @Override
        public String method() {
            return "loopback";
        }

        @Override
        public PeerLocation location() {
            return PeerLocation.OTHER_SITE;
        }

        @Override
        public void sendHandshake(ByteBuffer message) {
            if (message.remaining() > 1024) {
                throw new IllegalArgumentException("handshake message of " + message.remaining() + " bytes");
            }
            ByteBuffer copy = ByteBuffer.allocate(message.remaining()).put(message).flip();
            sent.add(copy);
        }

        /** Hands everything queued so far to {@code to}, in order; answers may queue more. */
        boolean deliverTo(TransformSession to) {
            boolean any = !sent.isEmpty();
            ByteBuffer m;
            while ((m = sent.poll()) != null) {
                to.onHandshake(m);
            }
            return any;
        }
    }

    private final TransformSession sender;
    private final TransformSession receiver;

    /** Opens both sessions and runs their handshake to the end (at most a few exchanges). */
    LoopbackPeers(Transform transform) {
        ContextId a = ContextId.random();
        ContextId b = ContextId.random();
        End atA = new End(a, b);
        End atB = new End(b, a);
        sender = transform.open(atA);
        receiver = transform.open(atB);
        for (int exchanges = 0; exchanges < 8; exchanges++) {
            if (!atA.deliverTo(receiver) & !atB.deliverTo(sender)) {
                return;
            }
        }
        throw new IllegalStateException(transform.name() + " handshake did not settle in 8 exchanges");
    }

    /** @return the end that encodes */
    TransformSession sender() {
        return sender;
    }

    /** @return the end that decodes */
    TransformSession receiver() {
        return receiver;
    }

    @Override
    public void close() {
        try {
            sender.close();
        } finally {
            receiver.close();
        }
    }
}
