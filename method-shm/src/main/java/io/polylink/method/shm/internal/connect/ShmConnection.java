package io.polylink.method.shm.internal.connect;

import static io.polylink.method.shm.internal.segment.InboxLayout.*;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.Statistics;
import io.polylink.method.shm.internal.liveness.ReceiverWatch;
import io.polylink.method.shm.internal.ring.Outbox;
import io.polylink.method.shm.internal.segment.SegmentException;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The shm connection to one peer context, both ways: frames go out as records in the peer's inbox
 * (through this connection's {@link Outbox} slot there) and come in as records in this context's
 * own inbox, from the peer's slot, put back together on the poller by its {@link FrameAssembler}.
 * This class is the sending end, and the connection's life from its first record to its last.
 *
 * <p>Sending happens on the caller's thread, serialised by a lock so a split frame's records stay
 * consecutive in its slot. A full ring makes the sender wait up to {@code sendTimeoutMs}, then fail
 * without closing the connection: backpressure, not loss.
 *
 * <p>Each side's connection has a session id; the first record it sends ({@code OPEN}) carries the
 * peer's session it answers, if any, so both sides settle on one connection per pair even when
 * they open at once, and a late record of a closed session is never taken for a new one.
 */
public final class ShmConnection implements Connection {

    private static final int CLOSE_WAIT_MS = 200;

    private final Connections registry;
    private final ContextId peer;
    private final ShmAddress address;
    private final Outbox out;
    private final FrameAssembler inbound;
    private final ReceiverWatch watch;
    private final SendCounter sends;
    private final int maxFrame;
    private final long sendTimeoutNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile boolean open = true;
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile Throwable closeCause;

    /** The peer's session whose records come to this connection; 0 until its OPEN arrived. Poller only. */
    private long peerSession;
    /** An answering OPEN waits to go out ahead of the first frame; guarded by {@link #lock}. */
    private boolean answerDue;
    private long answerAck;

    /**
     * Written by one sender at a time, under {@link #lock}, so an ordered store does what an
     * atomic add would, without its locked instruction on every frame; {@link #statistics} reads
     * them from anywhere.
     */
    private final AtomicLong framesSent = new AtomicLong();
    private final AtomicLong bytesSent = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();

    /**
     * @param registry the table this connection leaves when it closes
     * @param out this connection's producer slot in the peer's inbox
     * @param watch the heartbeat timer's judgement of the peer's inbox
     * @param sends counts every frame sent, for the poller
     * @param reassembly buffers for split frames, the poller's
     */
    ShmConnection(Connections registry, ContextId peer, ShmAddress address, Outbox out, ReceiverWatch watch,
                  SendCounter sends, Reassembly reassembly, int maxFrame, int sendTimeoutMs) {
        this.registry = registry;
        this.peer = peer;
        this.address = address;
        this.out = out;
        this.watch = watch;
        this.sends = sends;
        this.maxFrame = maxFrame;
        this.sendTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(sendTimeoutMs);
        this.inbound = new FrameAssembler(this, maxFrame, reassembly);
    }

    /** Names where this connection's received frames go, before any can come. */
    void attach(FrameReceiver receiver) {
        inbound.attach(receiver);
    }

    /** @return the receiving end, to which the poller hands the peer's records */
    public FrameAssembler inbound() {
        return inbound;
    }

    /** @return the heartbeat timer's judgement of the peer's inbox */
    ReceiverWatch watch() {
        return watch;
    }

    long outSession() {
        return out.session();
    }

    long peerSession() {
        return peerSession;
    }

    /** Takes the peer's session whose records come to this connection; poller only. */
    void adopt(long session) {
        peerSession = session;
    }

    @Override
    public ContextId peer() {
        return peer;
    }

    @Override
    public String method() {
        return ShmAddress.METHOD;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /** Sends the session's first record; {@code ack} is the peer session it answers, or 0. */
    void sendOpen(long ack) {
        lock.lock();
        try {
            checkOpen();
            writeOpen(ack, sendTimeoutNanos);
        } catch (SegmentException e) {
            fail(e);
            throw new LinkException(this + " failed: " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits, up to {@code waitNanos}, until the peer's poller took this connection's first record,
     * so that a peer that cannot answer (it cannot map this context's inbox) refuses it now, where
     * connecting can fail and the link take another method, rather than later, after frames went.
     * A peer that takes longer (its poller runs a long handler, or waits itself for this
     * context's) is not waited for: the heartbeat timer's check finds a refusal later.
     *
     * @throws LinkException if the peer refused the connection, or it closed meanwhile
     */
    void awaitAnswer(long waitNanos) {
        long first = out.segment().tail();
        long deadline = System.nanoTime() + waitNanos;
        while (out.segment().head() - first < 0 && isOpen() && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(20_000);
        }
        String refused = watch.slotLost();
        if (refused != null) {
            fail(new IOException(refused));
            throw new LinkException(this + " failed: " + refused);
        }
        checkOpen();
    }

    /**
     * Answers a peer's session with this connection's first record, sent ahead of the first frame
     * rather than now: the poller that calls this must never wait for room in the peer's inbox,
     * where the peer's poller may be waiting for room in ours.
     */
    void answerLater(long ack) {
        lock.lock();
        try {
            answerDue = true;
            answerAck = ack;
        } finally {
            lock.unlock();
        }
    }

    /** Lock held. */
    private void writeOpen(long ack, long waitNanos) {
        int at = claim(TYPE_OPEN, 0, 8, waitNanos);
        try {
            out.putLong(at + RECORD_HEADER, ack);
            out.commit(at, TYPE_OPEN, 0, 8);
        } catch (Throwable t) {
            throw abandoned(at, TYPE_OPEN, 0, 8, t);
        }
        answerDue = false;
    }

    @Override
    public void send(ByteBuffer header, ByteBuffer payload) {
        int length = header.remaining() + payload.remaining();
        if (length > maxFrame) {
            throw new LinkException("frame of " + length + " bytes to " + this + " exceeds the maximum of " + maxFrame);
        }
        lock.lock();
        try {
            checkOpen();
            if (answerDue) {
                writeOpen(answerAck, sendTimeoutNanos);
            }
            int maxBody = out.maxBody();
            if (length <= maxBody) {
                writeWhole(claim(TYPE_DATA, FLAG_BEGIN | FLAG_END, length, sendTimeoutNanos), header, payload, length);
            } else {
                sendSplit(header, payload, length, maxBody);
                sent(length);
            }
        } catch (SegmentException e) {
            throw failed(e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean trySend(ByteBuffer header, ByteBuffer payload) {
        int length = header.remaining() + payload.remaining();
        if (length > out.maxBody() || !lock.tryLock()) {
            return false;
        }
        try {
            checkOpen();
            if (answerDue) {
                return false;
            }
            int at = out.claim(TYPE_DATA, FLAG_BEGIN | FLAG_END, length);
            if (at == Outbox.FULL) {
                return false;
            }
            writeWhole(at, header, payload, length);
            return true;
        } catch (SegmentException e) {
            throw failed(e);
        } finally {
            lock.unlock();
        }
    }

    private LinkException failed(SegmentException e) {
        errors.incrementAndGet();
        fail(e);
        return new LinkException(this + " failed: " + e.getMessage(), e);
    }

    /** Fills and commits a claimed record with a whole frame. Lock held. */
    private void writeWhole(int at, ByteBuffer header, ByteBuffer payload, int length) {
        try {
            int body = at + RECORD_HEADER;
            int fromHeader = header.remaining();
            out.put(body, header, fromHeader);
            out.put(body + fromHeader, payload, payload.remaining());
            out.commit(at, TYPE_DATA, FLAG_BEGIN | FLAG_END, length);
        } catch (Throwable t) {
            throw abandoned(at, TYPE_DATA, FLAG_BEGIN | FLAG_END, length, t);
        }
        sent(length);
    }

    /**
     * Something failed between claiming a record and committing it: the record becomes padding,
     * so it does not hold up the peer's ring, and the connection fails, since the frame is lost
     * (and a split frame's first records went already). Lock held.
     *
     * @return what the sender is told
     */
    private LinkException abandoned(int at, int type, int flags, int bodyLength, Throwable t) {
        if (t instanceof SegmentException s) {
            return failed(s); // the receiver took the record back, or gave the inbox up
        }
        out.abandon(at, type, flags, bodyLength);
        errors.incrementAndGet();
        String why = intact() ? "a record could not be written: " + t : cutShort();
        fail(new IOException(why, t));
        return new LinkException(this + " failed: " + why, t);
    }

    /** @return whether the peer's inbox still has every page this connection mapped; a system call */
    boolean intact() {
        return out.segment().intact();
    }

    /** @return why the connection ends when the peer's inbox was cut short */
    String cutShort() {
        return "inbox " + address.describe() + " of context " + peer + " was cut short to "
            + out.segment().fileSize() + " bytes while mapped (" + out.segment().length() + ")";
    }

    /** Counts a frame sent. Lock held: one writer at a time, so an ordered store does. */
    private void sent(int length) {
        sends.sent();
        framesSent.lazySet(framesSent.get() + 1);
        bytesSent.lazySet(bytesSent.get() + length);
    }

    /** A frame larger than a record: {@code BEGIN(total:i32, bytes)}, middles, {@code END}. Lock held. */
    private void sendSplit(ByteBuffer header, ByteBuffer payload, int length, int maxBody) {
        int remaining = length;
        boolean first = true;
        while (remaining > 0) {
            int room = first ? maxBody - 4 : maxBody;
            int chunk = Math.min(room, remaining);
            int flags = (first ? FLAG_BEGIN : 0) | (chunk == remaining ? FLAG_END : 0);
            int bodyLength = chunk + (first ? 4 : 0);
            int at = claim(TYPE_DATA, flags, bodyLength, sendTimeoutNanos);
            try {
                int write = at + RECORD_HEADER;
                if (first) {
                    out.putInt(write, length);
                    write += 4;
                }
                int fromHeader = Math.min(chunk, header.remaining());
                out.put(write, header, fromHeader);
                out.put(write + fromHeader, payload, chunk - fromHeader);
                out.commit(at, TYPE_DATA, flags, bodyLength);
            } catch (Throwable t) {
                throw abandoned(at, TYPE_DATA, flags, bodyLength, t);
            }
            remaining -= chunk;
            first = false;
        }
    }

    /** Claims a record, waiting up to {@code waitNanos} for space. Lock held. */
    private int claim(int type, int flags, int bodyLength, long waitNanos) {
        int at = out.claim(type, flags, bodyLength);
        if (at != Outbox.FULL) {
            return at;
        }
        long deadline = System.nanoTime() + waitNanos;
        for (int spins = 0; ; spins++) {
            if (type != TYPE_CLOSE) {
                checkOpen(); // the goodbye goes after the connection closed
            }
            if (System.nanoTime() - deadline >= 0) {
                errors.incrementAndGet();
                throw new LinkException("inbox of " + peer + " at " + address.describe() + " is full ("
                    + out.used() + " of " + out.capacity() + " bytes) for "
                    + TimeUnit.NANOSECONDS.toMillis(waitNanos) + " ms; the receiver is slow or stalled");
            }
            if (spins < 100) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(20_000);
            }
            at = out.claim(type, flags, bodyLength);
            if (at != Outbox.FULL) {
                return at;
            }
        }
    }

    private void checkOpen() {
        if (!open) {
            Throwable cause = closeCause;
            throw new LinkException(this + " is closed" + (cause == null ? "" : ": " + cause.getMessage()));
        }
    }

    /** Closes the connection for {@code cause}, which the core is told. */
    public void fail(Throwable cause) {
        close(cause);
    }

    /**
     * The peer said goodbye; ours ends too. A peer that gave up its inbox (cut short, or found
     * corrupt) says goodbye as it closes its connections: this side then says why, naming the
     * inbox, rather than ending as in order.
     */
    public void closedByPeer() {
        String givenUp = watch.inboxGivenUp();
        close(givenUp == null ? null : new IOException(givenUp));
    }

    @Override
    public void close() {
        close(null);
    }

    /** Says goodbye in the peer's inbox if it is still open, then leaves the table and tells the core. */
    private void close(Throwable cause) {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        closeCause = cause;
        // Before taking the lock: a sender waiting for room in the peer's inbox holds it, and
        // would otherwise wait out sendTimeoutMs and fail as "full" on a connection already gone,
        // where it should fail as closed at once and let its flow move.
        open = false;
        inbound.stop();
        lock.lock();
        try {
            // Not into an inbox cut short: a goodbye there would fault, and its owner gives it up anyway.
            if (intact() && out.segment().state() == STATE_OPEN) {
                try {
                    if (answerDue) {
                        // The peer knows this session by its answering OPEN alone: the goodbye needs it first.
                        writeOpen(answerAck, TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MS));
                    }
                    int at = claim(TYPE_CLOSE, 0, 0, TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MS));
                    out.commit(at, TYPE_CLOSE, 0, 0);
                } catch (LinkException e) {
                    // The peer is gone or stalled: its slot is reclaimed when its owner sees this process end.
                }
            }
        } finally {
            lock.unlock();
        }
        out.close();
        registry.closed(this);
        FrameReceiver r = inbound.receiver();
        if (r != null) {
            r.onClosed(cause);
        }
    }

    /** The queue is the peer's inbox: what waits there, from every context that sends to it. */
    @Override
    public Statistics statistics() {
        return new Statistics(framesSent.get(), bytesSent.get(), inbound.framesReceived(), inbound.bytesReceived(),
            errors.get() + inbound.errors(), open ? out.used() : 0);
    }

    @Override
    public String toString() {
        return "shm connection to " + peer + " at " + address.describe();
    }
}
