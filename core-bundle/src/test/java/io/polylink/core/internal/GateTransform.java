package io.polylink.core.internal;

import io.polylink.LinkException;
import io.polylink.spi.BufferSource;
import io.polylink.spi.Transform;
import io.polylink.spi.TransformPeer;
import io.polylink.spi.TransformSession;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A test transform that encodes nothing until the test opens it, as aead encodes nothing before
 * the peer's hello: a sender waits in encode, holding the channel, and fails there when the
 * session closes. The bytes pass unchanged.
 */
public final class GateTransform implements Transform {

    public static final String NAME = "gate";

    private volatile boolean open;
    /** One per session: opening the gate or closing the session ends a wait in encode. */
    private final List<CountDownLatch> wakeUps = new CopyOnWriteArrayList<>();
    /** Counted down when a sender first waits in encode. */
    public final CountDownLatch waiting = new CountDownLatch(1);

    /** @param open {@code true} for a gate that never holds a sender back (the receiving side's) */
    public GateTransform(boolean open) {
        this.open = open;
    }

    public void open() {
        open = true;
        wakeUps.forEach(CountDownLatch::countDown);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public TransformSession open(TransformPeer peer) {
        CountDownLatch wakeUp = new CountDownLatch(open ? 0 : 1);
        wakeUps.add(wakeUp);
        return new TransformSession() {
            private volatile boolean closed;

            @Override
            public boolean ready() {
                return open || closed;
            }

            @Override
            public ByteBuffer encode(ByteBuffer header, ByteBuffer input, BufferSource output) {
                if (!ready()) {
                    waiting.countDown();
                    try {
                        wakeUp.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                if (closed || !open) {
                    throw new LinkException("gate " + (closed ? "session closed" : "stayed shut for 10 s")
                        + " before it opened; the frame was not sent");
                }
                return output.acquire(input.remaining()).put(input).flip();
            }

            @Override
            public ByteBuffer decode(ByteBuffer header, ByteBuffer input, BufferSource output) {
                return output.acquire(input.remaining()).put(input).flip();
            }

            @Override
            public void close() {
                closed = true;
                wakeUp.countDown();
            }
        };
    }
}
