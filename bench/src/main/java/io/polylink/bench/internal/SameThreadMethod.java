package io.polylink.bench.internal;

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
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A method joining contexts of one JVM that hands each frame to the peer's receiver on the sending
 * thread, after one copy, as a wire would make: what is left of a round trip is the core's own
 * work per RSR, with no cache line crossing between cores and no thread waiting for another.
 *
 * <p>A frame sent while a delivery runs (an inline handler's reply) waits in the network's queue
 * until that delivery returns, so deliveries never nest. Frame buffers are reused, so a steady
 * exchange allocates nothing here.
 */
final class SameThreadMethod implements CommunicationMethod {

    static final String NAME = "same-thread";

    /** Where the methods of one benchmark find each other; one delivery at a time across all. */
    static final class Network {
        private final Map<String, SameThreadMethod> listeners = new ConcurrentHashMap<>();
        private final ArrayDeque<End> targets = new ArrayDeque<>();
        private final ArrayDeque<ByteBuffer> frames = new ArrayDeque<>();
        private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();
        private boolean delivering;
        private int next;

        synchronized String bind(SameThreadMethod method) {
            String address = "same-thread:" + ++next;
            listeners.put(address, method);
            return address;
        }

        /** Queues a frame for {@code to}, then delivers everything queued unless a delivery runs. */
        void send(End to, ByteBuffer header, ByteBuffer payload) {
            synchronized (this) {
                ByteBuffer frame = free.pollLast();
                int length = header.remaining() + payload.remaining();
                if (frame == null || frame.capacity() < length) {
                    frame = ByteBuffer.allocate(Math.max(length, 256));
                }
                frames.add(frame.clear().put(header).put(payload).flip());
                targets.add(to);
                if (delivering) {
                    return;
                }
                delivering = true;
            }
            deliverQueued();
        }

        private void deliverQueued() {
            while (true) {
                End to;
                ByteBuffer frame;
                synchronized (this) {
                    to = targets.poll();
                    frame = frames.poll();
                    if (to == null) {
                        delivering = false;
                        return;
                    }
                }
                try {
                    to.receive(frame);
                } catch (RuntimeException | Error e) {
                    synchronized (this) {
                        delivering = false; // the next send delivers what is still queued
                    }
                    throw e;
                } finally {
                    synchronized (this) {
                        free.add(frame);
                    }
                }
            }
        }
    }

    private final Network network;
    private final Map<ContextId, End> connections = new ConcurrentHashMap<>();
    private volatile MethodContext context;
    private String address;

    SameThreadMethod(Network network) {
        this.network = network;
    }

    /**
     * Joins two ends over {@code network} with the given receivers and no context behind them, so
     * a benchmark can measure what this method costs a frame on its own.
     */
    static Connection[] pair(Network network, FrameReceiver first, FrameReceiver second) {
        SameThreadMethod method = new SameThreadMethod(network);
        End one = method.new End(ContextId.random());
        End two = method.new End(ContextId.random());
        one.other = two;
        two.other = one;
        one.receiver = first;
        two.receiver = second;
        return new Connection[] {one, two};
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void start(MethodContext context) {
        this.context = context;
        this.address = network.bind(this);
    }

    @Override
    public void stop() {
        network.listeners.remove(address);
        connections.values().forEach(End::close);
        connections.clear();
    }

    @Override
    public byte[] localAddress() {
        return address.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public Applicability applicable(ContextId peer, byte[] address) {
        return network.listeners.containsKey(describe(address)) ? Applicability.yes("in this JVM")
            : Applicability.no("no context of this JVM listens at " + describe(address));
    }

    @Override
    public synchronized Connection connect(ContextId peer, byte[] address, Map<String, String> parameters) {
        End existing = connections.get(peer);
        if (existing != null && existing.isOpen()) {
            return existing;
        }
        SameThreadMethod remote = network.listeners.get(describe(address));
        if (remote == null) {
            throw new LinkException("same-thread " + describe(address) + " refused: nobody listens there");
        }
        End mine = new End(peer);
        End theirs = new End(context.contextId());
        mine.other = theirs;
        theirs.other = mine;
        mine.receiver = context.inbound().open(mine);
        theirs.receiver = remote.context.inbound().open(theirs);
        connections.put(peer, mine);
        remote.connections.put(context.contextId(), theirs);
        return mine;
    }

    @Override
    public String describe(byte[] address) {
        return new String(address, StandardCharsets.US_ASCII);
    }

    @Override
    public Statistics statistics() {
        return Statistics.ZERO;
    }

    /** One end of a pair: frames sent here are received by {@link #other}'s receiver. */
    final class End implements Connection {
        private final ContextId peer;
        private volatile End other;
        private FrameReceiver receiver;
        private volatile boolean open = true;

        End(ContextId peer) {
            this.peer = peer;
        }

        @Override
        public ContextId peer() {
            return peer;
        }

        @Override
        public String method() {
            return NAME;
        }

        @Override
        public void send(ByteBuffer header, ByteBuffer payload) {
            End to = other;
            if (!open || !to.open) {
                throw new LinkException(this + " is closed");
            }
            network.send(to, header, payload);
        }

        @Override
        public boolean trySend(ByteBuffer header, ByteBuffer payload) {
            send(header, payload);
            return true;
        }

        private void receive(ByteBuffer frame) {
            if (open && !receiver.onFrame(frame)) {
                close();
            }
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public Statistics statistics() {
            return Statistics.ZERO;
        }

        @Override
        public void close() {
            if (open) {
                open = false;
                receiver.onClosed(null);
                End to = other;
                if (to != null) {
                    to.close();
                }
            }
        }

        @Override
        public String toString() {
            return "same-thread connection to " + peer;
        }
    }
}
