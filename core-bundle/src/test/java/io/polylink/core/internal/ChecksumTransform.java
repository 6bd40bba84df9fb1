package io.polylink.core.internal;

import io.polylink.MalformedMessageException;
import io.polylink.spi.BufferSource;
import io.polylink.spi.PeerLocation;
import io.polylink.spi.Transform;
import io.polylink.spi.TransformPeer;
import io.polylink.spi.TransformSession;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;

/**
 * A test transform that appends a CRC32C over the header and the payload, salted with a random
 * value each session sends its peer by handshake: it changes the bytes on the wire, authenticates
 * the header like an AEAD would, rejects a corrupted frame, and cannot decode a frame that
 * overtook the handshake it depends on.
 */
public final class ChecksumTransform implements Transform {

    private final String name;
    public final AtomicInteger openSessions = new AtomicInteger();
    /** Where each session's peer ran, as the session was told when it opened. */
    public final List<PeerLocation> peerLocations = new CopyOnWriteArrayList<>();

    public ChecksumTransform(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public TransformSession open(TransformPeer peer) {
        openSessions.incrementAndGet();
        peerLocations.add(peer.location());
        int salt = new Random().nextInt();
        peer.sendHandshake(ByteBuffer.allocate(4).putInt(salt).flip());
        return new TransformSession() {
            private boolean closed;
            private volatile Integer peerSalt;

            @Override
            public void onHandshake(ByteBuffer message) {
                peerSalt = message.getInt();
            }

            @Override
            public ByteBuffer encode(ByteBuffer header, ByteBuffer input, BufferSource output) {
                ByteBuffer out = output.acquire(input.remaining() + 4);
                int crc = crc(header, input) ^ salt;
                out.put(input).putInt(crc).flip();
                return out;
            }

            @Override
            public ByteBuffer decode(ByteBuffer header, ByteBuffer input, BufferSource output) {
                if (input.remaining() < 4) {
                    throw new MalformedMessageException(name + ": frame too short for its checksum");
                }
                ByteBuffer body = input.duplicate().limit(input.limit() - 4);
                int expected = input.getInt(input.limit() - 4);
                Integer theirs = peerSalt;
                if (theirs == null) {
                    throw new MalformedMessageException(name + ": frame arrived before the peer's handshake");
                }
                if ((crc(header, body.duplicate()) ^ theirs) != expected) {
                    throw new MalformedMessageException(name + ": checksum mismatch");
                }
                ByteBuffer out = output.acquire(body.remaining());
                out.put(body).flip();
                input.position(input.limit());
                return out;
            }

            @Override
            public synchronized void close() {
                if (!closed) {
                    closed = true;
                    openSessions.decrementAndGet();
                }
            }
        };
    }

    private static int crc(ByteBuffer header, ByteBuffer payload) {
        CRC32C crc = new CRC32C();
        crc.update(header.duplicate());
        crc.update(payload.duplicate());
        return (int) crc.getValue();
    }
}
