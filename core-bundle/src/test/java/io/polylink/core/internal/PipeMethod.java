package io.polylink.core.internal;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.Statistics;
import io.polylink.core.internal.observe.Counters;
import io.polylink.core.internal.wire.ControlFrame;
import io.polylink.core.internal.wire.FrameHeader;
import io.polylink.spi.Applicability;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import io.polylink.spi.MethodContext;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A test method joining contexts of one JVM: each connection end has a bounded queue drained by
 * its own thread, as a socket's reader thread would. Contexts find each other through a shared
 * {@link Network}; an address is the text "pipe:N". A method can be told to refuse everything.
 */
public final class PipeMethod implements CommunicationMethod {

    /** Where pipe methods of one test find each other. */
    public static final class Network {
        private final Map<String, PipeMethod> listeners = new ConcurrentHashMap<>();
        private int next;

        synchronized String bind(PipeMethod method) {
            String address = "pipe:" + ++next;
            listeners.put(address, method);
            return address;
        }
    }

    private final Network network;
    private final String name;
    private final List<End> ends = new CopyOnWriteArrayList<>();
    private final Map<ContextId, End> connections = new ConcurrentHashMap<>();
    private volatile String refusal;
    private volatile String connectFailure;
    /** The thread that sent each acknowledgement, in order. */
    public final List<String> ackThreads = new CopyOnWriteArrayList<>();
    /** The numbers of the RSRs sent asking for an acknowledgement. */
    public final List<Integer> ackRequests = new CopyOnWriteArrayList<>();
    /**
     * How long each frame into this method's side waits before it is received, one after another,
     * as on a slow link: frames of a faster method sent later can overtake it.
     */
    public volatile long latencyNanos;
    /** Whether {@link Connection#trySend} declines, as a method without it does. */
    public volatile boolean declineTrySend;
    /**
     * Whether a sender first offers each frame to the peer's core aside, as tcp's sending end of a
     * bulk stream does with what it reads; once the peer's inbox is empty, so nothing taken
     * overtakes a frame still queued.
     */
    public volatile boolean offerAside;
    /** What the peer's core took aside: "ack" for each acknowledgement, else the frame's flags and handler. */
    public final List<String> takenAside = new CopyOnWriteArrayList<>();
    /** How many frames the peer's core declined aside, which then went through its inbox. */
    public final AtomicInteger declinedAside = new AtomicInteger();
    /** The thread of each connect that had to open a pipe, in order. */
    public final List<String> connectingThreads = new CopyOnWriteArrayList<>();
    /** Thrown by the next connect that has to open a pipe, then cleared: a method with a bug. */
    public final AtomicReference<Error> nextConnectError = new AtomicReference<>();
    /** Thrown by the next send or trySend of any of this method's connections, then cleared. */
    public final AtomicReference<Error> nextSendError = new AtomicReference<>();
    /** Set, the next frame any end of this method sends closes its connection and fails, as a race with its closing would. */
    public final AtomicBoolean closeAtNextSend = new AtomicBoolean();
    private volatile MethodContext context;
    private String address;

    public PipeMethod(Network network, String name) {
        this.network = network;
        this.name = name;
    }

    public void refuse(String reason) {
        this.refusal = reason;
    }

    /** Connecting fails with this reason while applicability still says yes; {@code null} lifts it. */
    public void failConnects(String reason) {
        this.connectFailure = reason;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void start(MethodContext context) {
        this.context = context;
        this.address = network.bind(this);
    }

    @Override
    public void stop() {
        network.listeners.remove(address);
        ends.forEach(End::close);
        ends.clear();
        connections.clear();
    }

    @Override
    public byte[] localAddress() {
        return address.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public Applicability applicable(ContextId peer, byte[] address) {
        String reason = refusal;
        return reason == null ? Applicability.yes("pipe in this JVM") : Applicability.no(reason);
    }

    @Override
    public synchronized Connection connect(ContextId peer, byte[] address, Map<String, String> parameters) {
        End existing = connections.get(peer);
        if (existing != null && existing.isOpen()) {
            return existing;
        }
        String text = describe(address);
        connectingThreads.add(Thread.currentThread().getName());
        throwIfArmed(nextConnectError);
        String failure = connectFailure;
        if (failure != null) {
            throw new LinkException("pipe " + text + " failed to connect: " + failure);
        }
        PipeMethod remote = network.listeners.get(text);
        if (remote == null) {
            throw new LinkException("pipe " + text + " refused: nobody listens there");
        }
        End mine = new End(this, peer);
        End theirs = new End(remote, context.contextId());
        mine.other = theirs;
        theirs.other = mine;
        mine.start();
        theirs.start();
        connections.put(peer, mine);
        remote.connections.put(context.contextId(), theirs);
        return mine;
    }

    private static void throwIfArmed(AtomicReference<Error> armed) {
        Error e = armed.getAndSet(null);
        if (e != null) {
            throw e;
        }
    }

    @Override
    public String describe(byte[] address) {
        return new String(address, StandardCharsets.US_ASCII);
    }

    @Override
    public Statistics statistics() {
        return ends.stream().map(End::statistics).reduce(Statistics.ZERO, Statistics::plus);
    }

    /** @return the core's receiver of what {@code peer} sends this side */
    public FrameReceiver receiverFrom(ContextId peer) {
        return connections.get(peer).receiver;
    }

    /** @return whether a pipe into this method's side holds as many frames as it can */
    public boolean anInboxFull() {
        return ends.stream().anyMatch(e -> e.inbox.remainingCapacity() == 0);
    }

    /** One end of a pipe: frames sent here are received by {@link #other}'s thread. */
    public static final class End implements Connection {
        private final PipeMethod owner;
        private final ContextId peer;
        private final BlockingQueue<ByteBuffer> inbox = new ArrayBlockingQueue<>(1024);
        private final Counters counters = new Counters();
        private volatile boolean open = true;
        /** Set before {@link #open} is cleared when the other end closed this one. */
        private volatile boolean closedByPeer;
        private volatile End other;
        private Thread reader;
        private FrameReceiver receiver;

        End(PipeMethod owner, ContextId peer) {
            this.owner = owner;
            this.peer = peer;
            owner.ends.add(this);
        }

        void start() {
            receiver = owner.context.inbound().open(this);
            reader = new Thread(this::run, "polylink-test-pipe-" + owner.name);
            reader.setDaemon(true);
            reader.start();
        }

        private void run() {
            try {
                while (open) {
                    ByteBuffer frame = inbox.poll(100, TimeUnit.MILLISECONDS);
                    long latency = owner.latencyNanos;
                    if (frame != null && latency > 0) {
                        LockSupport.parkNanos(latency);
                    }
                    if (frame != null && !receiver.onFrame(frame)) {
                        close();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (closedByPeer) {
                // What the peer sent before it closed still arrives, as over a real connection.
                for (ByteBuffer frame; (frame = inbox.poll()) != null; ) {
                    if (!receiver.onFrame(frame)) {
                        break;
                    }
                }
            }
        }

        @Override
        public ContextId peer() {
            return peer;
        }

        @Override
        public String method() {
            return owner.name;
        }

        @Override
        public boolean trySend(ByteBuffer header, ByteBuffer payload) {
            if (owner.declineTrySend) {
                return false;
            }
            throwIfArmed(owner.nextSendError);
            End to = checkOpen();
            int headerAt = header.position();
            int payloadAt = payload.position();
            ByteBuffer frame = frame(header, payload);
            if (takenAside(to, frame)) {
                sent(frame);
                return true;
            }
            if (!to.inbox.offer(frame)) {
                header.position(headerAt);
                payload.position(payloadAt);
                return false;
            }
            sent(frame);
            return true;
        }

        private void sent(ByteBuffer frame) {
            counters.sent(frame.remaining());
            if ((FrameHeader.flags(frame) & FrameHeader.FLAG_CONTROL) != 0
                    && FrameHeader.handler(frame) == ControlFrame.ACK.code()) {
                owner.ackThreads.add(Thread.currentThread().getName());
            }
            if ((FrameHeader.flags(frame) & FrameHeader.FLAG_ACK_REQUEST) != 0) {
                owner.ackRequests.add(FrameHeader.sequence(frame));
            }
        }

        private boolean takenAside(End to, ByteBuffer frame) {
            if (!owner.offerAside) {
                return false;
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!to.inbox.isEmpty()) {
                if (System.nanoTime() - deadline > 0) {
                    throw new LinkException("pipe to " + peer + " did not drain for 5 s, to offer a frame aside");
                }
                Thread.onSpinWait();
            }
            boolean taken = to.receiver.offerAside(frame.duplicate());
            if (!taken) {
                owner.declinedAside.incrementAndGet();
            } else if (FrameHeader.flags(frame) == FrameHeader.FLAG_CONTROL
                    && FrameHeader.handler(frame) == ControlFrame.ACK.code()) {
                owner.takenAside.add("ack");
            } else {
                owner.takenAside.add("flags " + FrameHeader.flags(frame) + " handler " + FrameHeader.handler(frame));
            }
            return taken;
        }

        private End checkOpen() {
            if (owner.closeAtNextSend.getAndSet(false)) {
                close();
                throw new LinkException("pipe to " + peer + " closed as the frame went");
            }
            End to = other;
            if (!open || !to.open) {
                close(); // as a real method does with a connection whose other end went
                throw new LinkException("pipe to " + peer + " is closed");
            }
            return to;
        }

        private ByteBuffer frame(ByteBuffer header, ByteBuffer payload) {
            ByteBuffer frame = ByteBuffer.allocate(header.remaining() + payload.remaining());
            return frame.put(header).put(payload).flip();
        }

        @Override
        public void send(ByteBuffer header, ByteBuffer payload) {
            throwIfArmed(owner.nextSendError);
            End to = checkOpen();
            ByteBuffer frame = frame(header, payload);
            sent(frame);
            if (takenAside(to, frame)) {
                return;
            }
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (!to.inbox.offer(frame, 10, TimeUnit.MILLISECONDS)) {
                    if (!open || !to.open) {
                        throw new LinkException("pipe to " + peer + " closed while full");
                    }
                    if (System.nanoTime() - deadline > 0) {
                        throw new LinkException("pipe to " + peer + " stayed full for 5 s");
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LinkException("interrupted while sending to " + peer, e);
            }
        }

        @Override
        public String toString() {
            return owner.name + " connection to " + peer;
        }

        /** Puts raw bytes on the wire as the peer would, bypassing the core: for bad-input tests. */
        void inject(ByteBuffer frame) {
            other.inbox.add(frame);
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
        public void close() {
            close(false);
        }

        /** @param byPeer whether the other end closed: then what it sent before arrives first */
        private void close(boolean byPeer) {
            if (!open) {
                return;
            }
            closedByPeer = byPeer;
            open = false;
            if (reader != null && reader != Thread.currentThread()) {
                reader.interrupt();
                try {
                    reader.join(5000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            receiver.onClosed(null);
            End to = other;
            if (to != null) {
                to.close(true);
            }
        }
    }
}
