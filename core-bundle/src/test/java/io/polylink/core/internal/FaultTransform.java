package io.polylink.core.internal;

import io.polylink.spi.BufferSource;
import io.polylink.spi.Transform;
import io.polylink.spi.TransformPeer;
import io.polylink.spi.TransformSession;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A test transform that passes bytes unchanged until a test arms it: then its next encode, decode,
 * look whether it is ready or session close throws the Error given, as a transform with a bug or a
 * native library gone wrong would, once. It can also answer every handshake it gets with one of its
 * own.
 */
public final class FaultTransform implements Transform {

    public static final String NAME = "fault";

    /** Thrown by the next encode of any session, then cleared. */
    public final AtomicReference<Error> nextEncode = new AtomicReference<>();
    /** Thrown by the next decode of any session, then cleared. */
    public final AtomicReference<Error> nextDecode = new AtomicReference<>();
    /** Thrown by the next look whether a session is ready to encode, then cleared. */
    public final AtomicReference<Error> nextReady = new AtomicReference<>();
    /** Thrown by the next close of a session, then cleared. */
    public final AtomicReference<Error> nextClose = new AtomicReference<>();
    /** Whether sessions answer each handshake with one of their own, as a rekeying transform may. */
    public volatile boolean answerHandshakes;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public TransformSession open(TransformPeer peer) {
        return new TransformSession() {
            @Override
            public void onHandshake(ByteBuffer message) {
                if (answerHandshakes) {
                    peer.sendHandshake(ByteBuffer.allocate(message.remaining()).put(message).flip());
                }
            }

            @Override
            public ByteBuffer encode(ByteBuffer header, ByteBuffer input, BufferSource output) {
                throwIfArmed(nextEncode);
                return output.acquire(input.remaining()).put(input).flip();
            }

            @Override
            public ByteBuffer decode(ByteBuffer header, ByteBuffer input, BufferSource output) {
                throwIfArmed(nextDecode);
                return output.acquire(input.remaining()).put(input).flip();
            }

            @Override
            public boolean ready() {
                throwIfArmed(nextReady);
                return true;
            }

            @Override
            public void close() {
                throwIfArmed(nextClose);
            }
        };
    }

    private static void throwIfArmed(AtomicReference<Error> armed) {
        Error e = armed.getAndSet(null);
        if (e != null) {
            throw e;
        }
    }
}
