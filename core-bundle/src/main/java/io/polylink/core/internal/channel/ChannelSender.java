package io.polylink.core.internal.channel;

import io.polylink.LinkException;
import io.polylink.core.internal.buffer.ScratchBuffer;
import io.polylink.core.internal.channel.DeferredRsrs.Deferred;
import io.polylink.core.internal.concurrent.ControlSender;
import io.polylink.core.internal.concurrent.Locks;
import io.polylink.core.internal.concurrent.ReceivingThread;
import io.polylink.core.internal.wire.ControlFrame;
import io.polylink.core.internal.wire.EncodedTable;
import io.polylink.core.internal.wire.FrameHeader;
import io.polylink.core.internal.wire.Origin;
import io.polylink.core.internal.wire.StackAnnouncement;
import io.polylink.spi.Connection;
import io.polylink.spi.TransformSession;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What one channel sends: the frames of its flows' RSRs, each through its stack's transform
 * sessions, with the stack announcements and descriptor tables the peer needs first, and the
 * control frames the channel owes ({@link ControlQueue}) ahead of them.
 *
 * <p>Sending is serialised by the send lock, taken by the senders of flows (the application's
 * threads, or the handler pool when a flow moves). Control frames are sent ahead of the next
 * frame by whoever holds the lock, or by the context's {@link ControlSender} if nobody does: a
 * receiving thread never waits to send, and a loopback delivery never re-enters a session being
 * opened. Likewise an inline handler's RSR never waits for a transform's handshake, which its own
 * thread would have to read: it is deferred, in order, to the control thread
 * ({@link DeferredRsrs}). Every region that takes the send lock is written as {@link Locks} shows,
 * so an Error the JVM raises late never leaves it held.
 */
public final class ChannelSender {

    /** Tables one side may announce before it must reset: bounds the receiver's memory. */
    static final int MAX_TABLES = 1024;
    /** Bytes of tables one side may announce before it must reset: bounds the receiver's memory too. */
    static final int MAX_TABLE_BYTES = 1 << 20;
    private static final int MAX_STACK_ID = 255;
    /**
     * The most bytes of a payload's own that go with its header when a lent tail follows; more
     * are joined with the tail, in one copy.
     */
    static final int MAX_HEAD = 256;

    private final PeerChannel channel;
    private final Connection connection;
    private final TransformSessions sessions;
    private final ControlSender controlSender;
    private final Origin here;
    private final boolean deliversOnSend;
    private final ReentrantLock sendLock = new ReentrantLock();
    private final ControlQueue control = new ControlQueue();
    private final DeferredRsrs deferred = new DeferredRsrs();
    private final AtomicBoolean flushScheduled = new AtomicBoolean();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final ByteBuffer header = ByteBuffer.allocate(FrameHeader.MAX_LENGTH);
    /** The header and the bytes of a payload before its lent tail, so the method writes the tail from where it is. */
    private final ByteBuffer headerAndHead = ByteBuffer.allocate(FrameHeader.MAX_LENGTH + MAX_HEAD);
    private final ScratchBuffer[] encodeScratch;
    /** A payload and its lent tail as one, for transforms, which take one buffer. */
    private final ScratchBuffer joined;
    /** The tables the peer holds since the last reset, whatever stack they came on. */
    private final Set<Long> sentTables = new HashSet<>();
    private long sentTableBytes;
    /**
     * The tables sent on each stack since the last reset. A table counts as sent for a stack only
     * once it went on that stack: a peer drops every frame of a stack it refuses, tables too, and
     * this side may send on another stack before it hears of the refusal.
     */
    private final Map<Integer, Set<Long>> sentOnStack = new HashMap<>();
    /** By flow id and transforms; under the send lock. */
    private final Map<String, StackBinding> stacks = new HashMap<>();
    private int lastStackId;

    ChannelSender(PeerChannel channel, TransformSessions sessions, ControlSender controlSender, Origin here,
                  int maxWirePayload) {
        this.channel = channel;
        this.connection = channel.connection();
        this.sessions = sessions;
        this.controlSender = controlSender;
        this.here = here;
        this.deliversOnSend = channel.deliversOnSend();
        this.encodeScratch = new ScratchBuffer[] {
            new ScratchBuffer(maxWirePayload, "encoded frame"), new ScratchBuffer(maxWirePayload, "encoded frame")};
        this.joined = new ScratchBuffer(maxWirePayload, "frame with lent bytes");
    }

    /**
     * Binds a flow and a stack of transforms to this channel, announcing them to the peer under a
     * new id on first use, with the flow's first unacknowledged sequence number and where this
     * context runs.
     *
     * @param firstUnacknowledged the sequence number the peer should expect first from this flow
     * @throws LinkException if a transform is not installed or the channel failed
     */
    public StackBinding bind(long flowId, int firstUnacknowledged, List<String> transforms) {
        String names = String.join("+", transforms);
        String key = Long.toHexString(flowId) + ':' + names;
        int held = sendLock.getHoldCount();
        try {
            sendLock.lock();
            try {
                StackBinding known = stacks.get(key);
                if (known != null) {
                    return known;
                }
                if (lastStackId == MAX_STACK_ID) {
                    throw new LinkException("connection to " + connection.peer() + " over "
                        + connection.method() + " already carries " + MAX_STACK_ID + " stacks");
                }
                TransformSession[] chain = new TransformSession[transforms.size()];
                for (int i = 0; i < chain.length; i++) {
                    chain[i] = sessions.open(transforms.get(i));
                }
                StackBinding binding = new StackBinding(++lastStackId, names, chain);
                // Ahead of the handshakes the sessions just queued: the peer learns where this side
                // runs before it opens sessions of its own.
                writeControl(ControlFrame.STACK,
                    new StackAnnouncement(binding.id(), flowId, firstUnacknowledged, here, names).encode());
                stacks.put(key, binding);
                return binding;
            } finally {
                unlockAndFlush();
            }
        } finally {
            Locks.unlockTo(sendLock, held);
        }
    }

    /**
     * Sends one RSR of a flow; the tables of startpoints in it go first if the peer lacks them.
     *
     * @param flags {@link FrameHeader#FLAG_SEQUENCED}, perhaps with {@link FrameHeader#FLAG_ACK_REQUEST}
     * @param tail bytes the application lent, which follow {@code payload} in the frame; or {@code null}
     * @throws LinkException if the channel did not take the frame, or broke: an Error thrown anywhere
     *     in the send leaves unknown whether the frame went, so it closes the channel, and the flow
     *     sends the RSR again elsewhere, as for any connection that failed
     */
    public void send(StackBinding stack, int endpoint, int handler, int flags, int sequence, ByteBuffer payload,
                     ByteBuffer tail, EncodedTable[] tables, int tableCount) {
        try {
            sendOrDefer(stack, endpoint, handler, flags, sequence, payload, tail, tables, tableCount);
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            // Not only from the method or a transform: the JVM raises a fault on a mapping at some
            // later point of the thread that met it, such as the control frames' flush after the write.
            throw channel.broken(t);
        }
    }

    private void sendOrDefer(StackBinding stack, int endpoint, int handler, int flags, int sequence,
                             ByteBuffer payload, ByteBuffer tail, EncodedTable[] tables, int tableCount) {
        int held = sendLock.getHoldCount();
        try {
            if (!sendLock.tryLock()) {
                if (receiving()) {
                    // The holder may be waiting for a handshake this thread has yet to read.
                    defer(new Deferred(stack, flags, handler, endpoint, sequence, payload, tail, tables, tableCount));
                    return;
                }
                sendLock.lock();
            }
            try {
                if (deferred.any() || !stack.ready() && receiving()) {
                    defer(new Deferred(stack, flags, handler, endpoint, sequence, payload, tail, tables, tableCount));
                    return;
                }
                write(stack, flags, handler, endpoint, sequence, payload, tail, tables, tableCount);
            } finally {
                unlockAndFlush();
            }
        } finally {
            Locks.unlockTo(sendLock, held);
        }
    }

    /** A loopback delivers on the sender's thread, and its flows keep no copy to send again. */
    private boolean receiving() {
        return !deliversOnSend && ReceivingThread.now();
    }

    private void write(StackBinding stack, int flags, int handler, int endpoint, int sequence, ByteBuffer payload,
                       ByteBuffer tail, EncodedTable[] tables, int tableCount) {
        if (tableCount > 0) {
            sendTables(stack, tables, tableCount);
        }
        sendFrame(flags, stack, handler, endpoint, sequence, payload, tail);
    }

    /**
     * Keeps an RSR to send after those already deferred, once its stack is ready, from the control
     * thread; the sender goes on. Should that fail, the connection closes, and the flow sends the
     * RSR again elsewhere, as for any frame a connection lost.
     *
     * @throws LinkException if deferred RSRs already hold {@link DeferredRsrs#MAX_BYTES}
     */
    private void defer(Deferred d) {
        deferred.add(d, connection);
        if (drainScheduled.compareAndSet(false, true)) {
            controlSender.schedule(this::drainDeferred);
        }
    }

    /** On the control thread: sends deferred RSRs in order, waiting in encode as any sender may. */
    private void drainDeferred() {
        drainScheduled.set(false);
        int held = sendLock.getHoldCount();
        try {
            sendLock.lock();
            try {
                Deferred d;
                while ((d = deferred.first()) != null) {
                    write(d.stack(), d.flags(), d.handler(), d.endpoint(), d.sequence(), d.payload(), null, d.tables(),
                        d.tables().length);
                    deferred.sent();
                }
            } catch (RuntimeException e) {
                int lost = deferred.clear();
                channel.badFrame(new LinkException(lost + " RSRs sent from inline handlers could not "
                    + "follow: " + e.getMessage() + "; their flows send them again", e), null);
                channel.closeConnection();
            } finally {
                unlockAndFlush();
            }
        } finally {
            Locks.unlockTo(sendLock, held);
        }
    }

    /** @throws LinkException if the RSR refers to more tables than a peer keeps at once */
    private void sendTables(StackBinding stack, EncodedTable[] tables, int count) {
        if (!fit(tables, count)) {
            resetTables();
            if (!fit(tables, count)) {
                throw new LinkException("an RSR to " + connection.peer() + " refers to descriptor tables beyond what "
                    + "a connection carries at once (" + MAX_TABLES + " tables, " + MAX_TABLE_BYTES + " bytes)");
            }
        }
        Set<Long> onStack = sentOnStack.computeIfAbsent(stack.id(), id -> new HashSet<>());
        for (int i = 0; i < count; i++) {
            if (onStack.add(tables[i].id())) {
                if (sentTables.add(tables[i].id())) {
                    sentTableBytes += tables[i].bytes().length;
                }
                sendFrame(FrameHeader.FLAG_CONTROL, stack, ControlFrame.TABLE.code(), 0, 0,
                    ByteBuffer.wrap(tables[i].bytes()), null);
            }
        }
    }

    /** @return whether the tables the peer lacks fit beside those it keeps. Lock held. */
    private boolean fit(EncodedTable[] tables, int count) {
        int more = 0;
        long bytes = 0;
        for (int i = 0; i < count; i++) {
            if (!sentTables.contains(tables[i].id())) {
                more++;
                bytes += tables[i].bytes().length;
            }
        }
        return sentTables.size() + more <= MAX_TABLES && sentTableBytes + bytes <= MAX_TABLE_BYTES;
    }

    /** Tells the peer to forget the tables it got, so each goes again before its next use. Lock held. */
    private void resetTables() {
        sendFrame(FrameHeader.FLAG_CONTROL, StackBinding.PLAIN, ControlFrame.TABLE_RESET.code(), 0, 0,
            ByteBuffer.allocate(0), null);
        sentTables.clear();
        sentTableBytes = 0;
        sentOnStack.clear();
    }

    /**
     * The peer refused a stack this side announced: it is forgotten, so a later bind announces it
     * afresh. Tables sent on it were dropped with its frames, so all go again. On the control
     * thread.
     *
     * @return whether this side had announced the stack and the connection took the reset; if it
     *     did not take it, the connection failed and its flows move anyway
     */
    boolean refused(int stackId) {
        int held = sendLock.getHoldCount();
        try {
            sendLock.lock();
            try {
                if (!stacks.values().removeIf(s -> s.id() == stackId)) {
                    return false;
                }
                resetTables();
                return true;
            } catch (RuntimeException closed) {
                return false;
            } finally {
                unlockAndFlush();
            }
        } finally {
            Locks.unlockTo(sendLock, held);
        }
    }

    /** Forgets every stack with a departed transform, so its sessions are not kept alive. */
    void forget(String transform) {
        int held = sendLock.getHoldCount();
        try {
            sendLock.lock();
            try {
                stacks.values().removeIf(s -> List.of(s.transforms().split("\\+")).contains(transform));
            } finally {
                sendLock.unlock();
            }
        } finally {
            Locks.unlockTo(sendLock, held);
        }
    }

    /** Sends one frame, with any queued control frames before it. Caller holds the lock. */
    private void sendFrame(int flags, StackBinding stack, int handler, int endpoint, int sequence,
                           ByteBuffer payload, ByteBuffer tail) {
        control.flush(this);
        writeFrame(flags, stack, handler, endpoint, sequence, payload, tail);
    }

    /**
     * Queues a control frame from any thread, to go out ahead of the next frame sent.
     *
     * @throws LinkException if the peer left {@value ControlQueue#MAX_QUEUED} control frames unread
     */
    void enqueue(ControlFrame kind, ByteBuffer payload) {
        queue(kind, payload);
        flushLater();
    }

    /**
     * Queues a control frame that goes with the next one sent, whoever sends it.
     *
     * @throws LinkException if the peer left {@value ControlQueue#MAX_QUEUED} control frames unread
     */
    void queue(ControlFrame kind, ByteBuffer payload) {
        if (!control.add(kind, payload)) {
            throw new LinkException(connection + ": " + ControlQueue.MAX_QUEUED + " control frames wait for the peer "
                + "to read them; it asks for answers it does not take");
        }
    }

    /** The slot's flow owes its sender an acknowledgement: it goes out with the next control frames. */
    void requestAck(AckLane.Slot slot) {
        control.requestAck(slot);
    }

    /**
     * Has the control thread send what is queued, so it does not wait for the next RSR. Never on
     * this thread: a receiving thread that blocks in a send (the peer's inbox full) stops draining
     * its own inbox, and the peer's receiving thread may be doing the same towards this side.
     */
    void flushLater() {
        if (!control.isEmpty() && flushScheduled.compareAndSet(false, true)) {
            controlSender.schedule(this::flushIfFree);
        }
    }

    /**
     * On a receiving thread: sends what is queued if the connection takes it without waiting, and
     * leaves the rest to the control thread. An acknowledgement of a one-way stream then costs no
     * thread wake-up, which on a host with few cores takes one from a busy poller.
     */
    void flushFromReceiver() {
        if (control.isEmpty()) {
            return;
        }
        int held = sendLock.getHoldCount();
        try {
            if (sendLock.tryLock()) {
                try {
                    control.flushWithoutWaiting(this);
                } catch (RuntimeException e) {
                    control.clear();
                } finally {
                    sendLock.unlock();
                }
            }
        } finally {
            Locks.unlockTo(sendLock, held);
        }
        flushLater();
    }

    /** Caller holds the lock. @return whether the connection took the frame without waiting */
    boolean tryWriteControl(ControlFrame kind, ByteBuffer payload) {
        FrameHeader.writeAuthenticated(header, FrameHeader.FLAG_CONTROL, StackBinding.PLAIN.id(), kind.code(), 0, 0);
        FrameHeader.writeLength(header, payload.remaining());
        try {
            return connection.trySend(header, payload);
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw channel.broken(t);
        }
    }

    /** Caller holds the lock. */
    void writeControl(ControlFrame kind, ByteBuffer payload) {
        writeFrame(FrameHeader.FLAG_CONTROL, StackBinding.PLAIN, kind.code(), 0, 0, payload, null);
    }

    private void flushIfFree() {
        flushScheduled.set(false);
        // A holder of the lock flushes the queue again after releasing it (unlockAndFlush).
        if (control.isEmpty()) {
            return;
        }
        int held = sendLock.getHoldCount();
        try {
            if (sendLock.tryLock()) {
                unlockAndFlush();
            }
        } finally {
            Locks.unlockTo(sendLock, held);
        }
    }

    /**
     * Sends what is queued, then releases the send lock. A queuer that found the lock taken left
     * its frame to the holder; checking the queue after releasing (and taking the lock again if
     * needed) means no frame is left behind. What it leaves held when it throws, its caller lets
     * go of ({@link Locks}).
     */
    private void unlockAndFlush() {
        do {
            try {
                control.flush(this);
            } catch (RuntimeException e) {
                control.clear();
            }
            sendLock.unlock();
        } while (!control.isEmpty() && !sendLock.isHeldByCurrentThread() && sendLock.tryLock());
    }

    /**
     * Writes one frame: the header, then {@code payload} and {@code tail} through the stack's
     * transforms. A lent tail goes to the method as it is, behind the header and a short payload;
     * joined with the payload where transforms need one buffer or the payload is long.
     */
    private void writeFrame(int flags, StackBinding stack, int handler, int endpoint, int sequence,
                            ByteBuffer payload, ByteBuffer tail) {
        FrameHeader.writeAuthenticated(header, flags, stack.id(), handler, endpoint, sequence);
        TransformSession[] chain = stack.sessions();
        boolean tailAsItIs = tail != null && chain.length == 0 && payload.remaining() <= MAX_HEAD;
        ByteBuffer body = tail == null || tailAsItIs ? payload : join(payload, tail);
        try {
            for (int i = 0; i < chain.length; i++) {
                body = chain[i].encode(header.position(0), body, encodeScratch[i & 1]);
            }
            header.position(0);
            if (tailAsItIs) {
                FrameHeader.writeLength(header, body.remaining() + tail.remaining());
                connection.send(headerAndHead.clear().put(header).put(body).flip(), tail);
            } else {
                FrameHeader.writeLength(header, body.remaining());
                connection.send(header, body);
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            // A transform or the method broke (an Error): the connection goes, as any that failed.
            throw channel.broken(t);
        }
    }

    private ByteBuffer join(ByteBuffer payload, ByteBuffer tail) {
        int length = payload.remaining() + tail.remaining();
        ByteBuffer whole = joined.acquire(length);
        whole.put(payload).put(tail).flip();
        return whole;
    }
}
