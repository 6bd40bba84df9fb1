package io.polylink.core.internal;

import io.polylink.MalformedMessageException;
import io.polylink.spi.BufferSource;
import io.polylink.spi.Transform;
import io.polylink.spi.TransformPeer;
import io.polylink.spi.TransformSession;
import java.nio.ByteBuffer;

/**
 * A run-length transform for tests: small enough to trust, yet it declares its decoded size up
 * front and can expand, like a real compressor, so the core's bounds on transform output are
 * reachable from fuzzed frames.
 *
 * <pre>
 *   encoded := plainLength:i32 (count:u8 [1..255] value:u8)*
 * </pre>
 */
public final class RepeatTransform implements Transform {

    public static final String NAME = "rle";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public TransformSession open(TransformPeer peer) {
        return new Session();
    }

    /** Encodes {@code plain} on its own, for tests that build frames by hand. */
    public static byte[] encode(byte[] plain) {
        ByteBuffer out = ByteBuffer.allocate(4 + 2 * plain.length);
        out.putInt(plain.length);
        int i = 0;
        while (i < plain.length) {
            int run = 1;
            while (i + run < plain.length && run < 255 && plain[i + run] == plain[i]) {
                run++;
            }
            out.put((byte) run).put(plain[i]);
            i += run;
        }
        byte[] encoded = new byte[out.position()];
        out.flip().get(encoded);
        return encoded;
    }

    private static final class Session implements TransformSession {

        @Override
        public ByteBuffer encode(ByteBuffer header, ByteBuffer input, BufferSource output) {
            byte[] plain = new byte[input.remaining()];
            input.get(plain);
            byte[] encoded = RepeatTransform.encode(plain);
            return output.acquire(encoded.length).put(encoded).flip();
        }

        @Override
        public ByteBuffer decode(ByteBuffer header, ByteBuffer input, BufferSource output) {
            if (input.remaining() < 4) {
                throw new MalformedMessageException("rle frame of " + input.remaining()
                    + " bytes has no length");
            }
            int declared = input.getInt();
            // Ask before expanding anything: the source refuses sizes over the core's bound.
            ByteBuffer out = output.acquire(declared).limit(declared);
            while (input.hasRemaining()) {
                if (input.remaining() < 2) {
                    throw new MalformedMessageException("rle frame ends inside a run");
                }
                int run = input.get() & 0xFF;
                byte value = input.get();
                if (run == 0 || run > out.remaining()) {
                    throw new MalformedMessageException("rle run of " + run + " does not fit the declared "
                        + declared + " bytes");
                }
                for (int i = 0; i < run; i++) {
                    out.put(value);
                }
            }
            if (out.hasRemaining()) {
                throw new MalformedMessageException("rle frame declares " + declared + " bytes but expands to "
                    + out.position());
            }
            return out.flip();
        }

        @Override
        public void close() {}
    }
}
