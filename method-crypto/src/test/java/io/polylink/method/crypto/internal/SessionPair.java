package io.polylink.method.crypto.internal;

import io.polylink.testkit.RecordingSource;

import io.polylink.ContextId;
import io.polylink.spi.TransformSession;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * Two aead sessions joined as the two ends of one connection, without the core: what one seals,
 * the test may hand to the other to open, changed or not.
 */
final class SessionPair implements AutoCloseable {

    static final String PSK = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());
    static final String OTHER_PSK = Base64.getEncoder().encodeToString("fedcba9876543210fedcba9876543210".getBytes());

    final ContextId a;
    final ContextId b;
    final QueuePeer peerA;
    final QueuePeer peerB;
    final TransformSession atA;
    final TransformSession atB;

    private SessionPair(ContextId a, ContextId b, AeadTransform transformA, AeadTransform transformB, boolean deliver) {
        this.a = a;
        this.b = b;
        this.peerA = new QueuePeer(a, b);
        this.peerB = new QueuePeer(b, a);
        this.atA = transformA.open(peerA);
        this.atB = transformB.open(peerB);
        if (deliver) {
            peerA.deliverTo(atB);
            peerB.deliverTo(atA);
        }
    }

    /** @return a keyed pair with default settings and the given extra configuration on both ends */
    static SessionPair keyed(Map<String, Object> extra) {
        return new SessionPair(ContextId.random(), ContextId.random(), transform(extra), transform(extra), true);
    }

    static SessionPair keyed() {
        return keyed(Map.of());
    }

    /** @return a pair whose handshakes the test delivers itself, if at all */
    static SessionPair unkeyed(AeadTransform transformA, AeadTransform transformB) {
        return new SessionPair(ContextId.random(), ContextId.random(), transformA, transformB, false);
    }

    static SessionPair between(ContextId a, ContextId b, AeadTransform transformA, AeadTransform transformB) {
        return new SessionPair(a, b, transformA, transformB, true);
    }

    /** @return a transform with the test psk and {@code extra} on top */
    static AeadTransform transform(Map<String, Object> extra) {
        Map<String, Object> properties = new HashMap<>();
        properties.put("psk", PSK);
        properties.putAll(extra);
        AeadSettings settings = AeadSettings.parse(properties);
        return new AeadTransform(settings,
            CipherProvider.choose(settings.provider(), CipherProvider::loadConscrypt, settings.suite()));
    }

    /** @return a header as the core writes it (version 1, stack 1, handler, endpoint) */
    static ByteBuffer header(int handler, int endpoint) {
        return ByteBuffer.allocate(8).put(0, (byte) 0x10).put(1, (byte) 1).putShort(2, (short) handler)
            .putInt(4, endpoint);
    }

    /** @return what {@code from} sealed, copied out of the scratch buffer */
    static byte[] seal(TransformSession from, ByteBuffer header, byte[] payload) {
        ByteBuffer sealed = from.encode(header.duplicate(), ByteBuffer.wrap(payload), new RecordingSource(1 << 22));
        byte[] out = new byte[sealed.remaining()];
        sealed.get(out);
        return out;
    }

    /** @return what {@code to} opened */
    static byte[] open(TransformSession to, ByteBuffer header, byte[] frame) {
        ByteBuffer opened = to.decode(header.duplicate(), ByteBuffer.wrap(frame), new RecordingSource(1 << 22));
        byte[] out = new byte[opened.remaining()];
        opened.get(out);
        return out;
    }

    @Override
    public void close() {
        atA.close();
        atB.close();
    }
}
