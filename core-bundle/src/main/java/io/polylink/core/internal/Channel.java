package io.polylink.core.internal;

import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.DescriptorTable;
import io.polylink.LinkException;
import io.polylink.MalformedMessageException;
import io.polylink.MessageTooLargeException;
import io.polylink.Statistics;
import io.polylink.core.internal.buffer.MessageBufferImpl;
import io.polylink.core.internal.buffer.ScratchBuffer;
import io.polylink.core.internal.concurrent.ControlSender;
import io.polylink.core.internal.concurrent.ReceivingThread;
import io.polylink.core.internal.endpoint.EndpointImpl;
import io.polylink.core.internal.observe.ChannelCounters;
import io.polylink.core.internal.wire.Acknowledgement;
import io.polylink.core.internal.wire.ControlFrame;
import io.polylink.core.internal.wire.EncodedTable;
import io.polylink.core.internal.wire.FrameHeader;
import io.polylink.core.internal.wire.Handshake;
import io.polylink.core.internal.wire.StackAnnouncement;
import io.polylink.core.internal.wire.StackRefusal;
import io.polylink.core.internal.wire.TableCodec;
import io.polylink.core.internal.wire.TableResolver;
import io.polylink.core.internal.wire.WireInput;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import io.polylink.spi.PeerLocation;
import io.polylink.spi.Transform;
import io.polylink.spi.TransformPeer;
import io.polylink.spi.TransformSession;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The core's state for one {@link Connection}, both ways: framing and transforms for what it
 * sends, and for what it receives the tables and stacks the peer announced and the dispatch of
 * each frame.
 *
 * <p>Sending is serialised by {@link #sendLock}; receiving runs on one method thread at a time.
 * Transform handshakes and acknowledgements are queued and sent ahead of the next frame by
 * whoever holds the send lock, or by the context's {@link ControlSender} if nobody does: a
 * receiving thread never sends, and a loopback delivery never re-enters a session being opened.
 * Likewise an inline handler's RSR never waits for a transform's handshake, which its own thread
 * would have to read: it is deferred, in order, to the control thread (see {@link #defer}).
 */
final class Channel implements FrameReceiver {

    /** Tables one side may announce before it must reset: bounds the receiver's memory. */
    static final int MAX_TABLES = 1024;
    private static final int MAX_STACK_ID = 255;

    private final ContextRuntime runtime;
    private final long quietAckMs;
    private final Connection connection;
    private final boolean deliversOnSend;
    private final ChannelCounters counters = new ChannelCounters();
    private final Map<String, TransformSession> sessions = new ConcurrentHashMap<>();

    private final ReentrantLock sendLock = new ReentrantLock();
    private final Object sessionsLock = new Object();
    /** Control frames a receiving thread wants sent, acknowledgements aside. */
    private final ConcurrentLinkedQueue<Queued> queued = new ConcurrentLinkedQueue<>();
    /** Acknowledgements owed, sent after {@link #queued}: they allocate nothing. */
    private final AckLane acks = new AckLane();
    /** The payload of the acknowledgement being written; under the send lock. */
    private final ByteBuffer ackPayload = ByteBuffer.allocate(Acknowledgement.LENGTH);
    /**
     * The flow the last acknowledgement received named, so that a steady stream of them looks
     * nothing up (the lookup boxes its key); on the receiving thread only.
     */
    private Flow acknowledgedFlow;
    private final AtomicBoolean flushScheduled = new AtomicBoolean();
    /** RSRs waiting, in send order, for their stack to be ready; guarded by its own monitor. */
    private final ArrayDeque<Deferred> deferred = new ArrayDeque<>();
    private long deferredBytes;
    /** Whether {@link #deferred} holds any: read by every send, so not under the monitor. */
    private volatile boolean anyDeferred;
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private volatile Throwable failure;
    private volatile boolean closed;
    /** This side refused a frame, and so the method closes the channel: see {@link #onFrame}. */
    private volatile boolean refusedFrame;
    private final ByteBuffer header = ByteBuffer.allocate(FrameHeader.MAX_LENGTH);
    private final ScratchBuffer[] encodeScratch;
    private final Set<Long> sentTables = new HashSet<>();
    private final Map<String, StackBinding> sendStacks = new HashMap<>();
    private int lastStackId;

    /**
     * The tables the peer sent, replaced whole, never changed in place: a message handed to an
     * executor handler resolves its startpoints, on another thread, against the tables it arrived
     * with, whatever the peer sends after it.
     */
    private Map<Long, EncodedTable> receivedTables = Map.of();
    private TableResolver tables = TableResolver.NONE;
    private final ReceiveStack[] receiveStacks = new ReceiveStack[MAX_STACK_ID + 1];
    private final ByteBuffer authenticated = ByteBuffer.allocate(FrameHeader.MAX_LENGTH);
    private final ScratchBuffer[] decodeScratch;
    private final MessageBufferImpl reader;

    /**
     * The transforms and flow the peer announced under one stack id; sessions {@code null} until
     * resolved.
     */
    private record ReceiveStack(String transforms, String[] names, TransformSession[] sessions, InboundFlow flow,
                                AckLane.Slot ack) {}

    /** Sessions of a stack this side refused: its frames are dropped. */
    private static final TransformSession[] REFUSED = new TransformSession[0];

    private record Queued(ControlFrame kind, ByteBuffer payload) {}

    /** An RSR sent while a transform of its stack waited for the peer, with its own copies. */
    private record Deferred(StackBinding stack, int flags, int handler, int endpoint, int sequence, ByteBuffer payload,
                            EncodedTable[] tables) {

        Deferred(StackBinding stack, int flags, int handler, int endpoint, int sequence, ByteBuffer payload,
                 EncodedTable[] tables, int tableCount) {
            this(stack, flags, handler, endpoint, sequence, ByteBuffer.allocate(payload.remaining())
                .put(payload.duplicate()).flip(), Arrays.copyOf(tables == null ? new EncodedTable[0] : tables,
                tableCount));
        }
    }

    /** What inline handlers may leave waiting for a handshake before their sends fail instead. */
    static final long MAX_DEFERRED_BYTES = 4L << 20;

    Channel(ContextRuntime runtime, Connection connection, boolean deliversOnSend) {
        this.runtime = runtime;
        this.deliversOnSend = deliversOnSend;
        this.quietAckMs = runtime.quietAckMs();
        this.connection = connection;
        int bound = runtime.maxWirePayload();
        this.encodeScratch = new ScratchBuffer[] {
            new ScratchBuffer(bound, "encoded frame"), new ScratchBuffer(bound, "encoded frame")};
        this.decodeScratch = new ScratchBuffer[] {
            new ScratchBuffer(bound, "decoded frame"), new ScratchBuffer(bound, "decoded frame")};
        this.reader = runtime.buffers.reader();
    }

    Connection connection() {
        return connection;
    }

    boolean isOpen() {
        return connection.isOpen();
    }

    /**
     * @return why the connection closed, or {@code null} if it is open or closed in order. A
     *     method marks a connection closed before it tells the core why, so a caller that found it
     *     closed waits a moment (at most 50 ms) for the reason.
     */
    Throwable failure() {
        if (!closed && !connection.isOpen()) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
            while (!closed && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
            }
        }
        return failure;
    }

    Statistics statistics() {
        return counters.snapshot();
    }

    // ---- sending

    /**
     * @return whether the connection delivers each frame before its send returns, as its method
     *     said when it was installed
     */
    boolean deliversOnSend() {
        return deliversOnSend;
    }

    /**
     * Binds a flow and a stack of transforms to this channel, announcing them to the peer under a
     * new id on first use, with the flow's first unacknowledged sequence number.
     *
     * @throws io.polylink.LinkException if a transform is not installed or the channel failed
     */
    StackBinding bind(Flow flow, List<String> transforms) {
        String key = String.join("+", transforms);
        String flowKey = Long.toHexString(flow.id()) + ':' + key;
        sendLock.lock();
        try {
            StackBinding known = sendStacks.get(flowKey);
            if (known != null) {
                return known;
            }
            if (lastStackId == MAX_STACK_ID) {
                throw new LinkException("connection to " + connection.peer() + " over "
                    + connection.method() + " already carries " + MAX_STACK_ID + " stacks");
            }
            TransformSession[] chain = new TransformSession[transforms.size()];
            for (int i = 0; i < chain.length; i++) {
                chain[i] = session(transforms.get(i));
            }
            StackBinding binding = new StackBinding(++lastStackId, key, chain);
            sendFrame(FrameHeader.FLAG_CONTROL, StackBinding.PLAIN, ControlFrame.STACK.code(), 0, 0,
                new StackAnnouncement(binding.id(), flow.id(), flow.firstUnacknowledged(), key).encode());
            sendStacks.put(flowKey, binding);
            return binding;
        } finally {
            unlockAndFlush();
        }
    }

    /**
     * Sends one RSR of a flow; the tables of startpoints in it go first if the peer lacks them.
     *
     * @param flags {@link FrameHeader#FLAG_SEQUENCED}, perhaps with {@link FrameHeader#FLAG_ACK_REQUEST}
     */
    void send(StackBinding stack, int endpoint, int handler, int flags, int sequence, ByteBuffer payload,
              EncodedTable[] tables, int tableCount) {
        if (!sendLock.tryLock()) {
            if (receiving()) {
                // The holder may be waiting for a handshake this thread has yet to read.
                defer(new Deferred(stack, flags, handler, endpoint, sequence, payload, tables, tableCount));
                return;
            }
            sendLock.lock();
        }
        try {
            if (anyDeferred || !stack.ready() && receiving()) {
                defer(new Deferred(stack, flags, handler, endpoint, sequence, payload, tables, tableCount));
                return;
            }
            write(stack, flags, handler, endpoint, sequence, payload, tables, tableCount);
        } finally {
            unlockAndFlush();
        }
    }

    /** A loopback delivers on the sender's thread, and its flows keep no copy to send again. */
    private boolean receiving() {
        return !deliversOnSend() && ReceivingThread.now();
    }

    private void write(StackBinding stack, int flags, int handler, int endpoint, int sequence, ByteBuffer payload,
                       EncodedTable[] tables, int tableCount) {
        if (tableCount > 0) {
            sendTables(stack, tables, tableCount);
        }
        sendFrame(flags, stack, handler, endpoint, sequence, payload);
    }

    /**
     * Keeps an RSR to send after those already deferred, once its stack is ready, from the control
     * thread; the sender goes on. Should that fail, the connection closes, and the flow sends the
     * RSR again elsewhere, as for any frame a connection lost.
     *
     * @throws io.polylink.LinkException if deferred RSRs already hold {@link #MAX_DEFERRED_BYTES}
     */
    private void defer(Deferred d) {
        synchronized (deferred) {
            if (deferredBytes + d.payload().remaining() > MAX_DEFERRED_BYTES) {
                throw new LinkException(connection + ": " + deferred.size() + " RSRs ("
                    + deferredBytes + " bytes) sent from inline handlers already wait for the " + d.stack().transforms()
                    + " handshake, so this one is refused: an inline handler cannot wait for it; give the handler "
                    + "Delivery.EXECUTOR to let it wait");
            }
            deferred.add(d);
            deferredBytes += d.payload().remaining();
            anyDeferred = true;
        }
        if (drainScheduled.compareAndSet(false, true)) {
            runtime.controlSender().schedule(this::drainDeferred);
        }
    }

    /** On the control thread: sends deferred RSRs in order, waiting in encode as any sender may. */
    private void drainDeferred() {
        drainScheduled.set(false);
        sendLock.lock();
        try {
            while (true) {
                Deferred d;
                synchronized (deferred) {
                    d = deferred.peek();
                }
                if (d == null) {
                    return;
                }
                write(d.stack(), d.flags(), d.handler(), d.endpoint(), d.sequence(), d.payload(), d.tables(),
                    d.tables().length);
                synchronized (deferred) {
                    deferred.poll();
                    deferredBytes -= d.payload().limit();
                    anyDeferred = !deferred.isEmpty();
                }
            }
        } catch (RuntimeException e) {
            int lost;
            synchronized (deferred) {
                lost = deferred.size();
                deferred.clear();
                deferredBytes = 0;
                anyDeferred = false;
            }
            runtime.badFrame(this, new LinkException(lost + " RSRs sent from inline handlers could not "
                + "follow: " + e.getMessage() + "; their flows send them again", e));
            connection.close();
        } finally {
            unlockAndFlush();
        }
    }

    private void sendTables(StackBinding stack, EncodedTable[] tables, int count) {
        if (sentTables.size() + count > MAX_TABLES) {
            resetTables();
        }
        for (int i = 0; i < count; i++) {
            if (sentTables.add(tables[i].id())) {
                sendFrame(FrameHeader.FLAG_CONTROL, stack, ControlFrame.TABLE.code(), 0, 0,
                    ByteBuffer.wrap(tables[i].bytes()));
            }
        }
    }

    /** Tells the peer to forget the tables it got, so each goes again before its next use. Lock held. */
    private void resetTables() {
        sendFrame(FrameHeader.FLAG_CONTROL, StackBinding.PLAIN, ControlFrame.TABLE_RESET.code(), 0, 0,
            ByteBuffer.allocate(0));
        sentTables.clear();
    }

    /** Sends one frame, with any queued control frames before it. Caller holds the lock. */
    private void sendFrame(int flags, StackBinding stack, int handler, int endpoint, int sequence,
                           ByteBuffer payload) {
        flushQueued();
        writeFrame(flags, stack, handler, endpoint, sequence, payload);
    }

    private void flushQueued() {
        Queued next;
        while ((next = queued.poll()) != null) {
            writeFrame(FrameHeader.FLAG_CONTROL, StackBinding.PLAIN, next.kind().code(), 0, 0, next.payload());
        }
        AckLane.Slot slot;
        while ((slot = acks.peek()) != null) {
            int sequence = slot.flow.acknowledgedUpTo();
            writeFrame(FrameHeader.FLAG_CONTROL, StackBinding.PLAIN, ControlFrame.ACK.code(), 0, 0,
                ackPayload(slot.flow, sequence));
            acks.sent(slot, sequence);
        }
    }

    /** Caller holds the lock. */
    private ByteBuffer ackPayload(InboundFlow flow, int sequence) {
        return Acknowledgement.write(ackPayload, flow.key().flow(), sequence);
    }

    /** @return whether no control frame waits, acknowledgements included */
    private boolean nothingQueued() {
        return queued.isEmpty() && acks.isEmpty();
    }

    /** The connection failed: its senders learn it from their own sends. Caller holds the lock. */
    private void dropQueued() {
        queued.clear();
        acks.clear();
    }

    /** Queues a control frame from a receiving thread, to go out ahead of the next frame sent. */
    private void enqueue(ControlFrame kind, ByteBuffer payload) {
        queued.add(new Queued(kind, payload));
        flushLater();
    }

    /**
     * Has the control thread send what is queued, so it does not wait for the next RSR. Never on
     * this thread: a receiving thread that blocks in a send (the peer's inbox full) stops draining
     * its own inbox, and the peer's receiving thread may be doing the same towards this side.
     */
    private void flushLater() {
        if (!nothingQueued() && flushScheduled.compareAndSet(false, true)) {
            runtime.controlSender().schedule(this::flushQueuedIfFree);
        }
    }

    /**
     * On a receiving thread: sends what is queued if the connection takes it without waiting, and
     * leaves the rest to the control thread. An acknowledgement of a one-way stream then costs no
     * thread wake-up, which on a host with few cores takes one from a busy poller.
     */
    private void flushFromReceiver() {
        if (nothingQueued()) {
            return;
        }
        if (sendLock.tryLock()) {
            try {
                Queued next;
                while ((next = queued.peek()) != null && tryWriteControl(next.kind(), next.payload())) {
                    queued.poll();
                }
                AckLane.Slot slot;
                while (queued.isEmpty() && (slot = acks.peek()) != null) {
                    int sequence = slot.flow.acknowledgedUpTo();
                    if (!tryWriteControl(ControlFrame.ACK, ackPayload(slot.flow, sequence))) {
                        break;
                    }
                    acks.sent(slot, sequence);
                }
            } catch (RuntimeException e) {
                dropQueued();
            } finally {
                sendLock.unlock();
            }
        }
        flushLater();
    }

    /**
     * On an orderly close of this context: tells the peer what this channel's flows delivered, so
     * it neither keeps those RSRs to send again nor warns that they went unacknowledged. Never
     * waits: what the connection does not take at once is left to the peer's retries.
     */
    void acknowledgeDelivered() {
        for (ReceiveStack stack : receiveStacks) {
            InboundFlow flow = stack == null ? null : stack.flow();
            if (flow != null) {
                boolean owed;
                synchronized (flow) {
                    owed = flow.unacknowledged();
                    if (owed) {
                        flow.acknowledgeDelivered();
                    }
                }
                if (owed) {
                    acks.request(stack.ack());
                }
            }
        }
        flushFromReceiver();
    }

    /** Caller holds the lock. @return whether the connection took the frame without waiting */
    private boolean tryWriteControl(ControlFrame kind, ByteBuffer payload) {
        int length = payload.remaining();
        FrameHeader.writeAuthenticated(header, FrameHeader.FLAG_CONTROL, StackBinding.PLAIN.id(), kind.code(), 0, 0);
        FrameHeader.writeLength(header, length);
        if (!connection.trySend(header, payload)) {
            return false;
        }
        counters.sent(length);
        return true;
    }

    private void flushQueuedIfFree() {
        flushScheduled.set(false);
        // A holder of the lock flushes the queue again after releasing it (unlockAndFlush).
        if (!nothingQueued() && sendLock.tryLock()) {
            unlockAndFlush();
        }
    }

    /**
     * Releases the send lock, then sends what a receiving thread queued while it was held. A
     * queuer that found the lock taken left its frame to the holder; checking the queue after
     * releasing (and taking the lock again if needed) means no frame is left behind.
     */
    private void unlockAndFlush() {
        do {
            try {
                flushQueued();
            } catch (RuntimeException e) {
                dropQueued();
            } finally {
                sendLock.unlock();
            }
        } while (!nothingQueued() && !sendLock.isHeldByCurrentThread() && sendLock.tryLock());
    }

    private void writeFrame(int flags, StackBinding stack, int handler, int endpoint, int sequence,
                            ByteBuffer payload) {
        int plainLength = payload.remaining();
        FrameHeader.writeAuthenticated(header, flags, stack.id(), handler, endpoint, sequence);
        ByteBuffer body = payload;
        TransformSession[] chain = stack.sessions();
        for (int i = 0; i < chain.length; i++) {
            body = chain[i].encode(header.position(0), body, encodeScratch[i & 1]);
        }
        header.position(0);
        FrameHeader.writeLength(header, body.remaining());
        try {
            connection.send(header, body);
        } catch (RuntimeException e) {
            counters.error();
            throw e;
        }
        counters.sent(plainLength);
    }

    // ---- receiving

    @Override
    public boolean onFrame(ByteBuffer frame) {
        try {
            receive(frame);
            return true;
        } catch (MalformedMessageException | MessageTooLargeException e) {
            refused(e);
        } catch (RuntimeException e) {
            refused(new MalformedMessageException("transform failed on a frame: " + e, e));
        }
        return false;
    }

    /**
     * Takes acknowledgements on any thread: one only moves its flow's counter and wakes a sender
     * waiting for room, and needs none of the receiving thread's state. Everything else waits
     * for that thread, malformed acknowledgements too, so they are refused there.
     */
    @Override
    public boolean offerAside(ByteBuffer frame) {
        if (!Acknowledgement.isAcknowledgement(frame)) {
            return false;
        }
        Flow flow = runtime.flowOf(connection.peer(), Acknowledgement.flowOfFrame(frame));
        if (flow != null) {
            flow.acknowledged(Acknowledgement.sequenceOfFrame(frame));
        }
        return true;
    }

    private void refused(RuntimeException why) {
        counters.error();
        refusedFrame = true;
        runtime.badFrame(this, why);
    }

    private void receive(ByteBuffer frame) {
        int start = frame.position();
        int headerLength = FrameHeader.validate(frame, runtime.maxWirePayload());
        int flags = FrameHeader.flags(frame);
        int stackId = FrameHeader.stackId(frame);
        int handler = FrameHeader.handler(frame);
        int endpoint = FrameHeader.endpoint(frame);
        int sequence = (flags & FrameHeader.FLAG_SEQUENCED) != 0 ? FrameHeader.sequence(frame) : 0;
        ByteBuffer body = frame.position(start + headerLength);
        if (stackId != 0) {
            body = untransform(frame, start, headerLength, stackId, body);
            if (body == null) {
                return;
            }
        }
        if (body.remaining() > runtime.maxMessageSize()) {
            throw new MalformedMessageException("frame decodes to " + body.remaining()
                + " bytes, the maximum message size is " + runtime.maxMessageSize());
        }
        if ((flags & FrameHeader.FLAG_CONTROL) != 0) {
            control(handler, body);
            return;
        }
        counters.received(body.remaining());
        if ((flags & FrameHeader.FLAG_SEQUENCED) == 0) {
            deliver(endpoint, handler, body);
            return;
        }
        ReceiveStack received = stackId == 0 ? null : receiveStacks[stackId];
        InboundFlow flow = received == null ? null : received.flow();
        if (flow == null) {
            throw new MalformedMessageException("sequenced RSR on stack " + stackId + ", which names no flow");
        }
        boolean ack = (flags & FrameHeader.FLAG_ACK_REQUEST) != 0;
        synchronized (flow) {
            boolean fresh = flow.admit(sequence);
            if (ack) {
                // Queued before an inline handler runs, so a reply it sends on this channel
                // carries the acknowledgement out ahead of it, with no control-thread wake-up.
                flow.acknowledgeDelivered();
                acks.request(received.ack());
            } else if (fresh && quietAckMs > 0 && flow.quietCheckNeeded()) {
                checkQuietLater(received.ack());
            }
            if (fresh) {
                deliver(endpoint, handler, body);
            }
        }
        if (ack) {
            flushFromReceiver();
        }
    }

    /** Out of {@link #receive}, which runs per RSR: its lambda stays out of the hot method's code. */
    private void checkQuietLater(AckLane.Slot slot) {
        runtime.later(() -> acknowledgeIfQuiet(slot), quietAckMs);
    }

    /**
     * On the retry thread: acknowledges what a flow delivered since its last acknowledgement once
     * no RSR came for {@link #quietAckMs}. The sender asks only every so many RSRs or bytes, and
     * would otherwise keep the copies of a burst's tail for as long as the flow stays idle.
     */
    private void acknowledgeIfQuiet(AckLane.Slot slot) {
        InboundFlow flow = slot.flow;
        // While RSRs flow, this only reads a counter: taking the flow's lock from this thread
        // every time would make the receiving thread's lock a contended one.
        if (!closed && flow.busySinceCheck()) {
            checkQuietLater(slot);
            return;
        }
        boolean owed = false;
        synchronized (flow) {
            flow.quietCheckDone();
            if (!closed && flow.unacknowledged()) {
                flow.acknowledgeDelivered();
                owed = true;
            }
        }
        if (owed) {
            acks.request(slot);
            flushLater();
        }
    }

    private void deliver(int endpoint, int handler, ByteBuffer body) {
        EndpointImpl target = runtime.endpoints.get(endpoint);
        if (target == null) {
            runtime.endpoints.unknown(connection.peer(), connection.method(), endpoint, handler);
            return;
        }
        target.deliver(handler, reader.wrap(body, body.position(), body.remaining(), tables));
    }

    private ByteBuffer untransform(ByteBuffer frame, int start, int headerLength, int stackId, ByteBuffer body) {
        ReceiveStack stack = receiveStacks[stackId];
        if (stack == null) {
            throw new MalformedMessageException("frame uses stack id " + stackId
                + ", which the peer never announced");
        }
        if (stack.sessions() == null) {
            stack = resolve(stackId, stack);
        }
        if (stack.sessions() == REFUSED) {
            counters.error();
            return null;
        }
        if (stack.names().length == 0) {
            return body;
        }
        authenticated.clear().put(0, frame, start, headerLength - 4).limit(headerLength - 4);
        TransformSession[] chain = stack.sessions();
        for (int i = chain.length - 1; i >= 0; i--) {
            body = chain[i].decode(authenticated.position(0), body, decodeScratch[i & 1]);
        }
        return body;
    }

    private void control(int code, ByteBuffer body) {
        ControlFrame control = ControlFrame.of(code);
        if (control == null) {
            throw new MalformedMessageException("control frame of unknown kind " + code);
        }
        switch (control) {
            case TABLE -> {
                if (receivedTables.size() >= MAX_TABLES) {
                    throw new MalformedMessageException("peer announced more than " + MAX_TABLES
                        + " descriptor tables without a reset");
                }
                int at = body.position();
                DescriptorTable table = TableCodec.decode(body);
                byte[] bytes = new byte[body.position() - at];
                body.get(at, bytes);
                long id = EncodedTable.idOf(bytes, 0, bytes.length);
                if (!receivedTables.containsKey(id)) {
                    Map<Long, EncodedTable> next = new HashMap<>(receivedTables);
                    next.put(id, new EncodedTable(table, bytes, id));
                    receivedTables = next;
                    tables = next::get;
                }
            }
            case STACK -> announceReceived(body);
            case TABLE_RESET -> {
                receivedTables = Map.of();
                tables = TableResolver.NONE;
            }
            case HANDSHAKE -> handshake(body);
            case ACK -> {
                Acknowledgement.check(body);
                long id = Acknowledgement.flow(body);
                Flow flow = acknowledgedFlow;
                if (flow == null || flow.id() != id || flow.retired()) {
                    flow = runtime.flowOf(connection.peer(), id);
                    acknowledgedFlow = flow;
                }
                if (flow != null) {
                    flow.acknowledged(Acknowledgement.sequence(body));
                }
            }
            case REFUSED -> {
                StackRefusal refusal = StackRefusal.read(body);
                // Not on this receiving thread: forgetting the stack takes the send lock.
                runtime.controlSender().schedule(() -> peerRefused(refusal.stackId(), refusal.why()));
            }
        }
    }

    /**
     * The peer refused a stack this side announced: it is forgotten, so a later bind announces it
     * afresh, and its flows move. Tables sent on it were dropped with its frames, so all go again.
     */
    private void peerRefused(int id, String why) {
        sendLock.lock();
        try {
            sendStacks.values().removeIf(s -> s.id() == id);
            resetTables();
        } catch (RuntimeException closed) {
            return; // the connection failed: its flows move anyway
        } finally {
            unlockAndFlush();
        }
        runtime.peerRefused(this, id, why);
    }

    private void handshake(ByteBuffer body) {
        byte[] name = Handshake.readTransform(body);
        String transform = new String(name, StandardCharsets.US_ASCII);
        if (!Descriptor.validName(transform) || runtime.transform(transform) == null) {
            throw new MalformedMessageException("handshake for transform '" + WireInput.printable(name)
                + "', which is not installed here");
        }
        session(transform).onHandshake(body);
        flushLater(); // a session may answer in band, before this side's next frame
    }

    private void announceReceived(ByteBuffer body) {
        StackAnnouncement announced = StackAnnouncement.read(body);
        int id = announced.stackId();
        if (id == 0 || receiveStacks[id] != null) {
            throw new MalformedMessageException("stack id " + id + " announced twice or reserved");
        }
        InboundFlow inbound = runtime.inboundFlow(new InboundFlow.Key(connection.peer(), announced.flow()),
            announced.firstSequence());
        receiveStacks[id] = new ReceiveStack(announced.transforms(), announced.names().toArray(String[]::new), null,
            inbound, new AckLane.Slot(inbound));
    }

    /**
     * Opens the sessions of a received stack, now or again after a transform came back. A stack
     * with a transform not installed here is refused: the peer is told (it moves the flow to
     * another stack and sends its RSRs again), and the connection stays for its other stacks.
     */
    private ReceiveStack resolve(int id, ReceiveStack stack) {
        TransformSession[] chain = new TransformSession[stack.names().length];
        for (int i = 0; i < chain.length; i++) {
            if (runtime.transform(stack.names()[i]) == null) {
                String why = "transform " + stack.names()[i] + " is not installed at " + runtime.id();
                receiveStacks[id] = new ReceiveStack(stack.transforms(), stack.names(), REFUSED, stack.flow(), stack.ack());
                runtime.stackRefused(this, stack.transforms(), why);
                enqueue(ControlFrame.REFUSED, new StackRefusal(id, why).encode());
                return receiveStacks[id];
            }
            chain[i] = session(stack.names()[i]);
        }
        ReceiveStack resolved = new ReceiveStack(stack.transforms(), stack.names(), chain, stack.flow(), stack.ack());
        receiveStacks[id] = resolved;
        return resolved;
    }

    private TransformSession session(String name) {
        TransformSession session = sessions.get(name);
        if (session != null) {
            return session;
        }
        synchronized (sessionsLock) {
            session = sessions.get(name);
            if (session == null) {
                Transform transform = runtime.transform(name);
                if (transform == null) {
                    throw new LinkException("transform " + name + " is not installed here");
                }
                session = transform.open(new SessionPeer(name));
                sessions.put(name, session);
            }
        }
        flushLater();
        return session;
    }

    /** One transform's view of this channel. */
    private final class SessionPeer implements TransformPeer {
        private final byte[] name;

        SessionPeer(String name) {
            this.name = name.getBytes(StandardCharsets.US_ASCII);
        }

        @Override
        public ContextId self() {
            return runtime.id();
        }

        @Override
        public ContextId peer() {
            return connection.peer();
        }

        @Override
        public String method() {
            return connection.method();
        }

        /** Until peers say where they run, only this very context is known to be near. */
        @Override
        public PeerLocation location() {
            return connection.peer().equals(runtime.id()) ? PeerLocation.SAME_CONTEXT : PeerLocation.OTHER_SITE;
        }

        @Override
        public void sendHandshake(ByteBuffer message) {
            queued.add(new Queued(ControlFrame.HANDSHAKE, Handshake.encode(name, message)));
        }
    }

    /**
     * Drops a departed transform's session and every stack using it, so its class loader is not
     * kept alive; stacks the peer announced resolve again if the transform returns.
     */
    void forget(String transform) {
        sendLock.lock();
        try {
            sendStacks.values().removeIf(s -> List.of(s.transforms().split("\\+")).contains(transform));
        } finally {
            sendLock.unlock();
        }
        for (int i = 1; i < receiveStacks.length; i++) {
            ReceiveStack stack = receiveStacks[i];
            if (stack != null && List.of(stack.names()).contains(transform)) {
                receiveStacks[i] = new ReceiveStack(stack.transforms(), stack.names(), null, stack.flow(), stack.ack());
            }
        }
        TransformSession session = sessions.remove(transform);
        if (session != null) {
            session.close();
        }
    }

    @Override
    public void onClosed(Throwable cause) {
        failure = cause;
        closed = true;
        // A close that follows a refused frame was logged, with its reason, when the frame was.
        runtime.channelClosed(this, refusedFrame ? null : cause);
        sessions.values().forEach(TransformSession::close);
        sessions.clear();
    }

    @Override
    public String toString() {
        return connection.toString();
    }
}
