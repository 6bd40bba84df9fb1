package io.polylink.core.internal.local;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.Statistics;
import io.polylink.core.internal.observe.Counters;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * A connection from a context to itself. Frames are delivered on the sending thread; a frame sent
 * by a handler while another is being delivered waits in a queue until that delivery returns, so
 * deliveries never nest and per-connection order holds.
 */
final class LoopbackConnection implements Connection {

    private final ContextId self;
    private final Counters counters = new Counters();
    private final ArrayDeque<ByteBuffer> pending = new ArrayDeque<>();
    private FrameReceiver receiver;
    private boolean delivering;
    private volatile boolean open = true;

    LoopbackConnection(ContextId self) {
        this.self = self;
    }

    void attach(FrameReceiver receiver) {
        this.receiver = receiver;
    }

    @Override
    public ContextId peer() {
        return self;
    }

    @Override
    public String method() {
        return LocalMethod.NAME;
    }

    @Override
    public synchronized void send(ByteBuffer header, ByteBuffer payload) {
        if (!open) {
            throw new LinkException("local loopback connection is closed");
        }
        ByteBuffer frame = ByteBuffer.allocate(header.remaining() + payload.remaining());
        frame.put(header).put(payload).flip();
        counters.sent(frame.remaining());
        pending.add(frame);
        if (delivering) {
            return;
        }
        delivering = true;
        try {
            ByteBuffer next;
            while ((next = pending.poll()) != null) {
                counters.received(next.remaining());
                if (!receiver.onFrame(next)) {
                    counters.error();
                }
            }
        } finally {
            delivering = false;
        }
    }

    @Override
    public String toString() {
        return "local loopback connection of " + self;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public Statistics statistics() {
        return counters.snapshot();
    }

    @Override
    public synchronized void close() {
        if (open) {
            open = false;
            pending.clear();
            receiver.onClosed(null);
        }
    }
}
