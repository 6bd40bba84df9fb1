package io.polylink.core.internal.flow;

import io.polylink.core.internal.buffer.LentBytes;
import io.polylink.core.internal.buffer.MessageBufferImpl;
import io.polylink.core.internal.buffer.SharedStore;
import io.polylink.core.internal.wire.EncodedTable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A flow's RSRs the peer has not acknowledged yet, in sequence order, each kept as a copy (from
 * the {@link CopyPool}) or, for a large buffer sent more than once, as its store
 * ({@link MessageBufferImpl#share}), or, for bytes the application lent, as those bytes
 * ({@link LentBytes}), so the flow can send them again on another connection.
 * Acknowledgements arrive on receiving threads and only raise a counter ({@link #acknowledged});
 * everything else runs under the flow's lock, but for giving lent bytes back ({@link #loans}),
 * which the flow does after it let go of its lock: the application's callback may send.
 */
final class RetransmitStore implements Iterable<Pending> {

    /**
     * Larger RSRs are copied into direct memory, or kept by their store; not 64 KiB, since a
     * stream's acknowledgements free copies in bursts (docs/performance-notes.md#flow-constants).
     */
    static final int SMALL_COPY = 16 * 1024;
    /** Beyond these the peer is not acknowledging: senders wait rather than keep copying. */
    static final int MAX_PENDING = 1 << 16;
    static final long MAX_PENDING_BYTES = 64L << 20;
    private static final VarHandle ACKED;

    static {
        try {
            ACKED = MethodHandles.lookup().findVarHandle(RetransmitStore.class, "acked", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    /** Lent bytes of RSRs let go of, to give back without the lock. */
    private final ConcurrentLinkedQueue<LentBytes> loans = new ConcurrentLinkedQueue<>();
    /** RSRs kept with lent bytes; written under the lock, read by acknowledging threads. */
    private volatile int lending;
    private final CopyPool copies;
    private long bytes;
    @SuppressWarnings("unused") // through ACKED
    private volatile int acked;

    RetransmitStore(CopyPool copies) {
        this.copies = copies;
    }

    /** Keeps an RSR numbered {@code sequence}, its store or a copy, until the peer acknowledges it. */
    Pending keep(int endpoint, int handler, MessageBufferImpl message, int sequence) {
        int length = message.length();
        LentBytes lent = message.lent();
        SharedStore held = length > SMALL_COPY && lent == null ? message.share() : null;
        Pending p;
        if (lent != null) {
            p = copyOwn(message, length - lent.length());
            lent.retain();
            p.lent = lent;
            p.lentView = lent.view();
            lending++;
        } else if (held != null) {
            p = copies.take(0); // a small one: its copy stays unused
            p.held = held;
            p.view = held.view();
        } else {
            p = copyOwn(message, length);
        }
        p.length = length;
        p.sequence = sequence;
        p.endpoint = endpoint;
        p.handler = handler;
        p.tableCount = message.tableCount();
        if (p.tableCount > 0) {
            if (p.tables == null || p.tables.length < p.tableCount) {
                p.tables = new EncodedTable[p.tableCount];
            }
            System.arraycopy(message.tables(), 0, p.tables, 0, p.tableCount);
        }
        pending.addLast(p);
        bytes += length;
        if (length > SMALL_COPY) {
            copies.largeSent();
        }
        return p;
    }

    /** @return a copy of the message's own {@code length} bytes, lent ones aside */
    private Pending copyOwn(MessageBufferImpl message, int length) {
        ByteBuffer payload = message.payload();
        Pending p = copies.take(length);
        if (p.copy.capacity() < length) {
            int capacity = Math.max(length, p.copy.capacity() * 2);
            p.copy = capacity > SMALL_COPY ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
        }
        p.copy.clear().put(0, payload, payload.position(), length);
        message.releasePayload();
        return p;
    }

    /** @return the bytes to send again of a kept RSR, from its start; its lent bytes follow them ({@link #tail}) */
    static ByteBuffer payload(Pending p) {
        ByteBuffer kept = p.held != null ? p.view : p.copy;
        return kept.clear().limit(p.lent == null ? p.length : p.length - p.lent.length());
    }

    /** @return the lent bytes of a kept RSR, from their start; or {@code null} */
    static ByteBuffer tail(Pending p) {
        return p.lent == null ? null : p.lentView.clear();
    }

    /** @return whether RSRs with lent bytes are kept: the application waits for their acknowledgement */
    boolean lends() {
        return lending > 0;
    }

    /** Gives back the lent bytes of RSRs let go of; on a thread that does not hold the flow's lock. */
    void payLoans() {
        LentBytes l;
        while ((l = loans.poll()) != null) {
            l.release();
        }
    }

    /**
     * Drops the RSR kept last, if it is {@code p}: its sender is told it failed.
     *
     * @return whether it was dropped, and so its number is free again
     */
    boolean forgetLast(Pending p) {
        if (pending.peekLast() != p) {
            return false;
        }
        pending.pollLast();
        recycle(p);
        return true;
    }

    /**
     * Called on a receiving thread: the peer delivered everything up to {@code sequence}.
     *
     * @return whether that acknowledged more than before
     */
    boolean acknowledged(int sequence) {
        int current;
        do {
            current = (int) ACKED.getVolatile(this);
            if (sequence - current <= 0) {
                return false;
            }
        } while (!ACKED.compareAndSet(this, current, sequence));
        return true;
    }

    /** Lets go of what the peer acknowledged. */
    void trim() {
        int upTo = (int) ACKED.getVolatile(this);
        Pending p;
        while ((p = pending.peekFirst()) != null && p.sequence - upTo <= 0) {
            recycle(pending.pollFirst());
        }
    }

    /** Lets go of everything: it was delivered before its send returned, or it never will be. */
    void clear() {
        Pending p;
        while ((p = pending.pollFirst()) != null) {
            recycle(p);
        }
    }

    /** Lets go of everything and of the pooled small copies: the flow gave up on its peer. */
    void abandon() {
        clear();
        copies.dropSmall();
    }

    /**
     * @param next the sequence number the flow gives its next RSR
     * @return the sequence number the peer should expect first on a connection the flow moves to
     */
    int firstUnacknowledged(int next) {
        return pending.isEmpty() ? next : pending.peekFirst().sequence;
    }

    /** @return whether the peer must acknowledge before more is kept */
    boolean full() {
        return pending.size() >= MAX_PENDING || bytes >= MAX_PENDING_BYTES;
    }

    /** @return whether half the bound is kept: each RSR then asks for an acknowledgement */
    boolean halfFull() {
        return pending.size() >= MAX_PENDING / 2 || bytes >= MAX_PENDING_BYTES / 2;
    }

    boolean isEmpty() {
        return pending.isEmpty();
    }

    int size() {
        return pending.size();
    }

    long bytes() {
        return bytes;
    }

    /** @return the RSR kept last, or {@code null} */
    Pending last() {
        return pending.peekLast();
    }

    /** @return the kept RSRs, oldest first */
    @Override
    public Iterator<Pending> iterator() {
        return pending.iterator();
    }

    private void recycle(Pending p) {
        bytes -= p.length;
        if (p.held != null) {
            p.held.release();
            p.held = null;
            p.view = null;
        }
        if (p.lent != null) {
            loans.add(p.lent);
            lending--;
            p.lent = null;
            p.lentView = null;
        }
        if (p.tableCount > 0) {
            Arrays.fill(p.tables, 0, p.tableCount, null);
            p.tableCount = 0;
        }
        copies.give(p, bytes);
    }
}
