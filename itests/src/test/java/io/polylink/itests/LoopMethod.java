package io.polylink.itests;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.Statistics;
import io.polylink.spi.Applicability;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import io.polylink.spi.MethodContext;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A method written against the SPI alone, as a third party would: it carries a context's frames
 * back to itself through a queue and its own receiving thread. Registered as an OSGi service by
 * the tests, it shows the core picking up, selecting, using and dropping a foreign method.
 */
final class LoopMethod implements CommunicationMethod {

    private final String name;
    private final AtomicLong frames = new AtomicLong();
    private volatile MethodContext context;
    private volatile Loop loop;

    LoopMethod(String name) {
        this.name = name;
    }

    long frames() {
        return frames.get();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void start(MethodContext context) {
        this.context = context;
    }

    @Override
    public synchronized void stop() {
        if (loop != null) {
            loop.close();
            loop = null;
        }
    }

    @Override
    public byte[] localAddress() {
        return ("loop:" + context.contextId()).getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public Applicability applicable(ContextId peer, byte[] address) {
        return peer.equals(context.contextId()) ? Applicability.yes("loops back in this framework")
            : Applicability.no("only loops back");
    }

    @Override
    public synchronized Connection connect(ContextId peer, byte[] address, Map<String, String> parameters) {
        if (!peer.equals(context.contextId())) {
            throw new LinkException(name + " cannot reach " + peer);
        }
        if (loop == null || !loop.isOpen()) {
            loop = new Loop(peer);
            loop.start(context.inbound().open(loop));
        }
        return loop;
    }

    @Override
    public String describe(byte[] address) {
        return new String(address, StandardCharsets.US_ASCII);
    }

    @Override
    public Statistics statistics() {
        return new Statistics(frames.get(), 0, frames.get(), 0, 0);
    }

    private final class Loop implements Connection {
        private final ContextId peer;
        private final BlockingQueue<ByteBuffer> queue = new ArrayBlockingQueue<>(4096);
        private volatile boolean open = true;
        private Thread thread;
        private FrameReceiver receiver;

        Loop(ContextId peer) {
            this.peer = peer;
        }

        void start(FrameReceiver receiver) {
            this.receiver = receiver;
            thread = new Thread(() -> {
                try {
                    while (open) {
                        ByteBuffer frame = queue.poll(50, TimeUnit.MILLISECONDS);
                        if (frame != null) {
                            receiver.onFrame(frame);
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "polylink-test-" + name);
            thread.start();
        }

        @Override
        public ContextId peer() {
            return peer;
        }

        @Override
        public String method() {
            return name;
        }

        @Override
        public void send(ByteBuffer header, ByteBuffer payload) {
            ByteBuffer frame = ByteBuffer.allocate(header.remaining() + payload.remaining());
            frame.put(header).put(payload).flip();
            try {
                if (!open || !queue.offer(frame, 5, TimeUnit.SECONDS)) {
                    throw new LinkException(name + " loop is closed or full");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LinkException("interrupted", e);
            }
            frames.incrementAndGet();
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public Statistics statistics() {
            return LoopMethod.this.statistics();
        }

        @Override
        public void close() {
            if (open) {
                open = false;
                thread.interrupt();
                try {
                    thread.join(5000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                receiver.onClosed(null);
            }
        }
    }
}
