package io.polylink.bench.internal.transforms;

import io.polylink.spi.Transform;
import io.polylink.spi.TransformSession;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One transform's work at one size, twice: by the raw library and by the polylink transform.
 * Either way one operation is a message there and back: encode, then decode what was encoded.
 * Both are checked to give the input back before anything is measured.
 */
abstract class TransformWork implements AutoCloseable {

    /** A 12-byte frame header as the core writes it, for the transforms that authenticate it. */
    static final byte[] HEADER = {0x10, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 1};

    /** Read by nothing: keeps the JIT from dropping the work. */
    static volatile long sink;

    final byte[] data;
    private final ByteBuffer header = ByteBuffer.wrap(HEADER.clone());
    private final ByteBuffer input;
    private final Scratch encoded = new Scratch();
    private final Scratch decoded = new Scratch();

    private final LoopbackPeers peers;

    /** @param transform the polylink transform, whose two sessions this work opens */
    TransformWork(byte[] data, Transform transform) {
        this.data = data;
        this.input = ByteBuffer.wrap(data);
        this.peers = new LoopbackPeers(transform);
    }

    /** @return one raw round: the library's encode then decode, output in reused buffers */
    abstract Runnable raw();

    private TransformSession encoder() {
        return peers.sender();
    }

    private TransformSession decoder() {
        return peers.receiver();
    }

    /** @return one candidate round: the transform session's encode, then the peer session's decode */
    final Runnable candidate() {
        TransformSession encoder = encoder();
        TransformSession decoder = decoder();
        return () -> {
            ByteBuffer out = encoder.encode(header.position(0), input.clear(), encoded);
            ByteBuffer back = decoder.decode(header.position(0), out, decoded);
            sink += back.get(back.limit() - 1);
        };
    }

    /** @return bytes on the wire for one message through the transform, over the input's size */
    final double wireRatio() {
        ByteBuffer out = encoder().encode(header.position(0), input.clear(), new Scratch());
        int wire = out.remaining();
        ByteBuffer back = decoder().decode(header.position(0), out, new Scratch());
        checkSame("the " + name() + " transform", back);
        return (double) wire / data.length;
    }

    /** @throws IllegalStateException unless {@code back} (position to limit) is the input */
    final void checkSame(String what, ByteBuffer back) {
        byte[] bytes = new byte[back.remaining()];
        back.get(bytes);
        if (!Arrays.equals(bytes, data)) {
            throw new IllegalStateException(what + " did not give the " + data.length + " input bytes back");
        }
    }

    abstract String name();

    /** @return what the raw side runs, for the output */
    abstract String rawDescription();

    @Override
    public void close() {
        peers.close();
    }
}
