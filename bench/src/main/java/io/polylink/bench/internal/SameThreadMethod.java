package io.polylink.bench.internal;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.Statistics;
import io.polylink.spi.Applicability;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import io.polylink.spi.MethodContext;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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

    /**
     * Where the methods of one benchmark find each other; one delivery at a time across all.
     *
     * <p>The thread that sends while nobody delivers becomes the deliverer with one
     * compare-and-set, delivers at once and lets go with one store: its nested sends (an inline
     * handler's reply) wait in a queue only it touches. Another thread that sends meanwhile (a
     * context's control thread with an acknowledgement) leaves its frame in a locked queue and
     * tries to become the deliverer; the deliverer looks at that queue after letting go, so no
     * frame is left behind. A round trip on one thread thus costs this method one locked
     * instruction and one fence, as a wire's own claim and commit would, and no monitor.
     */
    static final class Network {
        private static final VarHandle DELIVERER;
        private static final int FRAME_LEAST = 256;

        static {
            try {
                DELIVERER = MethodHandles.lookup().findVarHandle(Network.class, "deliverer", Thread.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final Map<String, SameThreadMethod> listeners = new ConcurrentHashMap<>();
        /** The thread delivering now, or {@code null}; taken by compare-and-set. */
        private volatile Thread deliverer;
        /** Frames queued for delivery, their targets beside, and buffers to reuse: the deliverer's alone. */
        private final ArrayDeque<End> targets = new ArrayDeque<>();
        private final ArrayDeque<ByteBuffer> frames = new ArrayDeque<>();
        private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();
        /** Frames other threads sent while one delivered, and their targets; guarded by {@code foreignFrames}. */
        private final ArrayDeque<End> foreignTargets = new ArrayDeque<>();
        private final ArrayDeque<ByteBuffer> foreignFrames = new ArrayDeque<>();
        private volatile boolean foreignWaiting;
        private int next;

        synchronized String bind(SameThreadMethod method) {
            String address = "same-thread:" + ++next;
            listeners.put(address, method);
            return address;
        }

        /** Delivers a frame for {@code to} now, or after the delivery under way, in the order sent. */
        void send(End to, ByteBuffer header, ByteBuffer payload) {
            Thread self = Thread.currentThread();
            if (deliverer == self) {
                targets.add(to);
                frames.add(copy(header, payload, free.pollLast()));
                return;
            }
            if (!DELIVERER.compareAndSet(this, null, self)) {
                synchronized (foreignFrames) {
                    foreignTargets.add(to);
                    foreignFrames.add(copy(header, payload, null));
                    foreignWaiting = true;
                }
                if (DELIVERER.compareAndSet(this, null, self)) {
                    deliverQueued(self);
                }
                return; // else the deliverer looks at the foreign frames after letting go
            }
            targets.add(to);
            frames.add(copy(header, payload, free.pollLast()));
            deliverQueued(self);
        }

        /**
         * Delivers what is queued, then lets go, and takes over again for frames other threads
         * left meanwhile. A receiver that throws lets go at once: what is still queued goes with
         * the next send.
         */
        private void deliverQueued(Thread self) {
            do {
                try {
                    takeForeign();
                    End to;
                    while ((to = targets.poll()) != null) {
                        ByteBuffer frame = frames.poll();
                        try {
                            to.receive(frame);
                        } finally {
                            free.add(frame);
                        }
                    }
                } finally {
                    deliverer = null; // a volatile store: the look at foreignWaiting below comes after it
                }
            } while (foreignWaiting && DELIVERER.compareAndSet(this, null, self));
        }

        private void takeForeign() {
            if (foreignWaiting) {
                synchronized (foreignFrames) {
                    targets.addAll(foreignTargets);
                    frames.addAll(foreignFrames);
                    foreignTargets.clear();
                    foreignFrames.clear();
                    foreignWaiting = false;
                }
            }
        }

        private static ByteBuffer copy(ByteBuffer header, ByteBuffer payload, ByteBuffer spare) {
            int length = header.remaining() + payload.remaining();
            ByteBuffer frame = spare == null || spare.capacity() < length
                ? ByteBuffer.allocate(Math.max(length, FRAME_LEAST)) : spare;
            return frame.clear().put(header).put(payload).flip();
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
