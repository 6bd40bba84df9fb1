package io.polylink.method.shm.internal;

import static io.polylink.method.shm.internal.InboxLayout.*;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.Statistics;
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
 * The shm channel to one peer context, both ways: frames go out as records in the peer's inbox
 * (through this connection's {@link Outbox} slot there) and come in as records in this context's
 * own inbox, from the peer's slot, delivered by the method's poller.
 *
 * <p>Sending happens on the caller's thread, serialised by a lock so a split frame's records stay
 * consecutive in its slot. A full ring makes the sender wait up to {@code sendTimeoutMs}, then fail
 * without closing the connection: backpressure, not loss.
 *
 * <p>Each side's connection has a session id; the first record it sends ({@code OPEN}) carries the
 * peer's session it answers, if any, so both sides settle on one connection per pair even when
 * they open at once, and a late record of a closed session is never taken for a new one.
 */
final class ShmConnection implements Connection {

    private static final int CLOSE_WAIT_MS = 200;

    private final ShmMethod method;
    private final ContextId peer;
    private final ShmAddress address;
    private final Outbox out;
    private final int maxFrame;
    private final long sendTimeoutNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile FrameReceiver receiver;
    private volatile boolean open = true;
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile Throwable closeCause;

    /** The peer's session whose records come to this connection; 0 until its OPEN arrived. Poller only. */
    private long peerSession;
    /** An answering OPEN waits to go out ahead of the first frame; guarded by {@link #lock}. */
    private boolean answerDue;
    private long answerAck;
    /** A split frame being put together, from {@link #reassembly}; poller only. */
    private ByteBuffer partial;
    private final Reassembly reassembly;

    /** The peer inbox's heartbeat plus head as last seen, and when it last moved; timer thread only. */
    private long lastBeat = -1;
    private long lastBeatAt = System.nanoTime();
    private boolean silenceLogged;

    /**
     * Each written by one thread at a time (senders under {@link #lock}, the poller for what it
     * receives), so an ordered store does what an atomic add would, without its locked
     * instruction on every frame; {@link #statistics} reads them from anywhere.
     */
    private final AtomicLong framesSent = new AtomicLong();
    private final AtomicLong bytesSent = new AtomicLong();
    private final AtomicLong framesReceived = new AtomicLong();
    private final AtomicLong bytesReceived = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();

    ShmConnection(ShmMethod method, ContextId peer, ShmAddress address, Outbox out, long peerSession,
                  int maxFrame, int sendTimeoutMs, Reassembly reassembly) {
        this.method = method;
        this.reassembly = reassembly;
        this.peer = peer;
        this.address = address;
        this.out = out;
        this.peerSession = peerSession;
        this.maxFrame = maxFrame;
        this.sendTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(sendTimeoutMs);
    }

    void attach(FrameReceiver receiver) {
        this.receiver = receiver;
    }

    long outSession() {
        return out.session();
    }

    long peerSession() {
        return peerSession;
    }

    void adopt(long session) {
        peerSession = session;
    }

    Segment peerInbox() {
        return out.segment();
    }

    @Override
    public ContextId peer() {
        return peer;
    }

    @Override
    public String method() {
        return ShmMethod.NAME;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    // ---- sending, on callers' threads

    /** Sends the session's first record; {@code ack} is the peer session it answers, or 0. */
    void sendOpen(long ack) {
        lock.lock();
        try {
            checkOpen();
            writeOpen(ack);
        } catch (SegmentException e) {
            fail(e);
            throw new LinkException(this + " failed: " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
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
    private void writeOpen(long ack) {
        int at = claim(TYPE_OPEN, 0, 8, sendTimeoutNanos);
        out.putLong(at + RECORD_HEADER, ack);
        out.commit(at, TYPE_OPEN, 0, 8);
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
                writeOpen(answerAck);
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
        int body = at + RECORD_HEADER;
        int fromHeader = header.remaining();
        out.put(body, header, fromHeader);
        out.put(body + fromHeader, payload, payload.remaining());
        out.commit(at, TYPE_DATA, FLAG_BEGIN | FLAG_END, length);
        sent(length);
    }

    /** Counts a frame sent. Lock held: one writer at a time, so an ordered store does. */
    private void sent(int length) {
        method.sent();
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
            int write = at + RECORD_HEADER;
            if (first) {
                out.putInt(write, length);
                write += 4;
            }
            int fromHeader = Math.min(chunk, header.remaining());
            out.put(write, header, fromHeader);
            out.put(write + fromHeader, payload, chunk - fromHeader);
            out.commit(at, TYPE_DATA, flags, bodyLength);
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

    // ---- receiving, on the poller thread

    void onData(int flags, ByteBuffer body) {
        if (!open) {
            return;
        }
        if (flags == (FLAG_BEGIN | FLAG_END)) {
            if (partial != null) {
                protocolError("a whole frame came while a split one was " + partial.remaining() + " bytes short");
                return;
            }
            deliver(body);
            return;
        }
        if ((flags & FLAG_BEGIN) != 0) {
            if (partial != null || body.remaining() < 4) {
                protocolError(partial != null ? "a split frame began before the previous one ended"
                    : "a split frame began without its length");
                return;
            }
            int total = body.getInt(body.position());
            if (total <= 0 || total > maxFrame) {
                protocolError("a split frame announced " + Integer.toUnsignedString(total)
                    + " bytes, above the maximum of " + maxFrame);
                return;
            }
            partial = reassembly.take(total);
            body.position(body.position() + 4);
        } else if (partial == null) {
            protocolError("a continuation record came without a beginning");
            return;
        }
        if (body.remaining() > partial.remaining()) {
            protocolError("a split frame's records exceed its announced " + partial.capacity() + " bytes");
            return;
        }
        partial.put(body);
        if ((flags & FLAG_END) != 0) {
            if (partial.hasRemaining()) {
                protocolError("a split frame ended " + partial.remaining() + " bytes short");
                return;
            }
            ByteBuffer frame = partial.flip();
            partial = null;
            deliver(frame);
            reassembly.give(frame);
        }
    }

    private void deliver(ByteBuffer frame) {
        framesReceived.lazySet(framesReceived.get() + 1);
        bytesReceived.lazySet(bytesReceived.get() + frame.remaining());
        if (!receiver.onFrame(frame)) {
            errors.incrementAndGet();
            fail(new IOException("the core refused a frame from " + this));
        }
    }

    private void protocolError(String what) {
        errors.incrementAndGet();
        fail(new IOException(what)); // the core logs why, naming this connection
    }

    // ---- liveness, on the timer thread

    /**
     * Judges the peer from its inbox. Dead: the inbox is closed or corrupt, the owner's process is
     * gone, or it has been stopped (by a signal or a debugger) while neither its heartbeat nor its
     * head moved for the failure timeout. A process that runs is never declared dead for being
     * silent: a loaded host can leave its timer and poller without a core, or a collection pause
     * hold them, for longer than the timeout, and it goes on afterwards; that is said once in the
     * log, and senders meanwhile meet a full ring (backpressure) rather than a closed link.
     *
     * @param now {@link System#nanoTime()}
     * @return why the peer's inbox can no longer be written, or {@code null} if it is alive
     */
    String checkReceiver(long now, long failureNanos) {
        Segment inbox = out.segment();
        int state = inbox.state();
        if (state == STATE_CLOSED) {
            return "context " + peer + " closed its inbox";
        }
        if (state == STATE_CORRUPT) {
            return "context " + peer + " found its inbox corrupt and replaced it";
        }
        // Both only grow: the sum moves if the timer beat or the poller consumed. A peer that moved
        // since the last look ran then; the process table, whose reading costs more than a beat
        // does, is asked only of one that did not, so a killed peer is found a beat later.
        long beat = inbox.heartbeatCount() + inbox.head();
        if (beat != lastBeat) {
            lastBeat = beat;
            lastBeatAt = now;
            silenceLogged = false;
            return null;
        }
        long pid = inbox.ownerPid();
        if (!Liveness.alive(pid, inbox.ownerStart())) {
            return "process " + pid + " of context " + peer + " is gone";
        }
        long silentMs = TimeUnit.NANOSECONDS.toMillis(now - lastBeatAt);
        if (now - lastBeatAt <= failureNanos) {
            return null;
        }
        if (Liveness.stopped(pid)) {
            return "process " + pid + " of context " + peer + " is stopped: no heartbeat and no progress in its "
                + "inbox for " + silentMs + " ms";
        }
        if (!silenceLogged) {
            silenceLogged = true;
            method.problem("silent receiver", 20, this + ": no heartbeat and no progress in the peer's inbox for " + silentMs + " ms, but its "
                + "process " + pid + " runs (a loaded host or a pause); the link stays open");
        }
        return null;
    }

    // ---- closing

    void fail(Throwable cause) {
        close(cause, true);
    }

    /** The peer closed its side in order; tell ours. */
    void closedByPeer() {
        close(null, true);
    }

    @Override
    public void close() {
        close(null, true);
    }

    private void close(Throwable cause, boolean sayGoodbye) {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        closeCause = cause;
        // Before taking the lock: a sender waiting for room in the peer's inbox holds it, and
        // would otherwise wait out sendTimeoutMs and fail as "full" on a connection already gone,
        // where it should fail as closed at once and let its flow move.
        open = false;
        lock.lock();
        try {
            if (sayGoodbye && out.segment().state() == STATE_OPEN) {
                try {
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
        method.closed(this);
        FrameReceiver r = receiver;
        if (r != null) {
            r.onClosed(cause);
        }
    }

    /** The queue is the peer's inbox: what waits there, from every context that sends to it. */
    @Override
    public Statistics statistics() {
        return new Statistics(framesSent.get(), bytesSent.get(), framesReceived.get(), bytesReceived.get(),
            errors.get(), open ? out.used() : 0);
    }

    @Override
    public String toString() {
        return "shm connection to " + peer + " at " + address.describe();
    }
}
