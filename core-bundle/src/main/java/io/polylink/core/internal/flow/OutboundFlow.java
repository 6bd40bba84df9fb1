package io.polylink.core.internal.flow;

import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.Explanation;
import io.polylink.LinkException;
import io.polylink.core.internal.buffer.MessageBufferImpl;
import io.polylink.core.internal.channel.OutboundFlows;
import io.polylink.core.internal.channel.PeerChannel;
import io.polylink.core.internal.concurrent.Locks;
import io.polylink.core.internal.concurrent.ReceivingThread;
import io.polylink.core.internal.endpoint.Endpoints;
import io.polylink.core.internal.observe.RoundTrips;
import io.polylink.core.internal.registry.Installed;
import io.polylink.core.internal.select.LinkOptions;
import io.polylink.core.internal.select.SizeChoices;
import io.polylink.core.internal.wire.EncodedTable;
import io.polylink.core.internal.wire.FrameHeader;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The ordered, acknowledged stream of RSRs from this context to one peer under one table and one
 * set of link settings: every startpoint target with the same three shares it, and so one
 * selection and one order.
 *
 * <p>Each RSR gets the next sequence number and is kept ({@link RetransmitStore}) until the peer
 * acknowledges it. When the flow moves ({@link FlowBinder}: its method or a transform left, was
 * replaced, its connection broke, or a preferable entry became usable), it announces itself on
 * the new connection and sends every unacknowledged RSR again, in order, before anything new; the
 * peer drops the copies it already delivered. So a method can go while RSRs flow and none is
 * lost, duplicated or reordered.
 *
 * <p>Senders take the flow's lock. A receiving thread (an inline handler sending) never waits
 * for it but hands its RSR off to the holder ({@link #handOff}). Acknowledgements arrive on
 * receiving threads and never wait for the lock: a sender may hold it while blocked on a full
 * connection that only a receiving thread can drain. (They take it when it is free, to give the
 * application back bytes it lent; see {@link #trimDue}.) Every region that takes the lock is written
 * as {@link Locks} shows, so an Error the JVM raises late never leaves it held.
 */
public final class OutboundFlow implements OutboundFlows.Acknowledged {

    /**
     * What makes targets share a flow. The table by its id, not its instance: each connection
     * decodes its own copy of a table, and copies of one table must share one flow.
     */
    record Key(ContextId peer, long table, LinkOptions options) {}

    /**
     * How one target reaches the flow, as binding decided.
     *
     * @param flow the flow, which may be the successor of the one asked
     * @param explanation why the flow is on its stack, for that target
     * @param local whether the flow is on plain {@code local}, so sends can skip it
     * @param generation the context's generation the decision holds for
     */
    public record Routing(OutboundFlow flow, Explanation explanation, boolean local, int generation) {}

    /**
     * Ask for an acknowledgement at least every this many RSRs, or every {@link #ACK_EVERY_BYTES}
     * once {@link #ACK_MIN} went, so copies are dropped while RSRs flow; each answer costs the
     * sending side a wake-up (docs/performance-notes.md#flow-constants).
     */
    static final int ACK_EVERY = 64;
    private static final int ACK_EVERY_BYTES = 16 << 20;
    private static final int ACK_MIN = 4;
    private static final long ACK_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);
    /**
     * How long an RSR bound for another stack than the flow's waits for the peer to acknowledge
     * what went before it; past it, the RSR goes where the flow is and asks again.
     */
    private static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long SETTLE_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How long a report ({@code polylink:links}, JMX) waits for a flow a sender holds. */
    static final long REPORT_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** The count a report gives for a flow a sender held through its wait. */
    public static final int BUSY = -1;

    private final Flows owner;
    private final Installed installed;
    private final Endpoints endpoints;
    private final Key key;
    private final EncodedTable table;
    private final long id;
    final ReentrantLock lock = new ReentrantLock();
    /** RSRs from receiving threads that found the lock held: see {@link #handOff}. */
    private final HandOffs handOffs = new HandOffs();
    final CopyPool copies;
    private final RetransmitStore store;
    private final FlowBinder binder;
    private int next = 1;
    private int lastRequest;
    /** How many more RSRs ask for their acknowledgement because the last ones moved between stacks, or wanted to. */
    private int askingToMove;
    private long bytesSinceRequest;
    private final AckTimer ackTimer = new AckTimer();
    private volatile Thread waiter;
    private volatile boolean retired;
    /**
     * Set by an acknowledgement while RSRs with lent bytes are kept: whoever holds the lock trims
     * before letting go, so the application gets its bytes back without waiting for the next send.
     */
    private volatile boolean trimDue;

    OutboundFlow(Flows owner, Key key, EncodedTable table, long id) {
        this.owner = owner;
        this.installed = owner.installed;
        this.endpoints = owner.endpoints;
        this.key = key;
        this.table = table;
        this.id = id;
        this.copies = new CopyPool(() -> owner.timer.later(this::shrinkCopies, CopyPool.SHRINK_AFTER_MS));
        this.store = new RetransmitStore(copies);
        this.binder = new FlowBinder(this, owner, store);
    }

    @Override
    public long id() {
        return id;
    }

    Key key() {
        return key;
    }

    EncodedTable table() {
        return table;
    }

    @Override
    public boolean retired() {
        return retired;
    }

    void retire() {
        retired = true;
    }

    /** The sequence number the peer should expect first on a connection this flow moves to. */
    int firstUnacknowledged() {
        return store.firstUnacknowledged(next);
    }

    /**
     * Binds the flow if it is not bound for the context's current generation.
     *
     * @return how a target reaches the flow now
     * @throws io.polylink.NoApplicableMethodException if no entry can be used
     */
    public Routing route(int endpoint) {
        if (retired) {
            return owner.flow(key.peer(), table, key.options()).route(endpoint);
        }
        int held = lock.getHoldCount();
        try {
            if (!lock.tryLock()) {
                Explanation explained = ReceivingThread.now() ? binder.explanation(endpoint) : null;
                if (explained != null) {
                    // Not waiting for the holder: see handOff. Sends through this routing bind the flow.
                    return new Routing(this, explained, false, installed.generation());
                }
                lock.lock();
            }
            try {
                if (binder.stale()) {
                    binder.bind(endpoint);
                }
                return new Routing(this, binder.explanation(endpoint), binder.binding() == BoundStack.LOCAL,
                    binder.generation());
            } finally {
                release();
            }
        } finally {
            Locks.unlockTo(lock, held);
        }
    }

    /** @return why the flow is where it is, for one of its targets; {@code null} before it is bound */
    public Explanation explanation(int endpoint) {
        return binder.explanation(endpoint);
    }

    /**
     * Numbers and sends one RSR; see {@link io.polylink.Startpoint#send}.
     *
     * @return {@code false}, sending nothing, if the flow retired: the caller sends through the
     *     context's flow for the key, which never has another one beside it
     */
    boolean send(int endpoint, int handler, MessageBufferImpl message) {
        int held = lock.getHoldCount();
        try {
            if (!lock.tryLock()) {
                if (ReceivingThread.now()) {
                    handOff(endpoint, handler, message);
                    return true;
                }
                lock.lock();
            }
            try {
                if (retired) {
                    return false;
                }
                sendHandOffs();
                return sendLocked(endpoint, handler, message);
            } finally {
                release();
            }
        } finally {
            Locks.unlockTo(lock, held);
        }
    }

    /**
     * Sends an RSR from a receiving thread that found the lock held. Such a thread must never
     * wait for it: the holder may be waiting for the peer (a transform's handshake, room in a
     * full connection), and the receiving thread is the one that would read the peer's answer;
     * it once stalled flows for whole handshake timeouts. The RSR, copied, goes out when the
     * holder lets go of the lock, before anything sent after it. The caller undoes the holds it
     * leaves, as {@link Locks} says.
     *
     * @throws LinkException if RSRs handed off already hold {@value HandOffs#MAX_BYTES} bytes
     */
    private void handOff(int endpoint, int handler, MessageBufferImpl message) {
        handOffs.add(this, endpoint, handler, message);
        if (lock.tryLock()) {
            release();
        }
    }

    /** Sends the RSRs handed off while the lock was held, in order. Caller holds the lock. */
    private void sendHandOffs() {
        HandOffs.HandOff h;
        while (!retired && (h = handOffs.poll()) != null) {
            try {
                if (!sendLocked(h.endpoint(), h.handler(), h.message())) {
                    forward(h);
                }
            } catch (RuntimeException e) {
                owner.handOffFailed(this, e);
            }
        }
    }

    /** An RSR handed off to a flow that retired meanwhile goes to its successor, as a send would. */
    private void forward(HandOffs.HandOff h) {
        try {
            owner.send(owner.flow(key.peer(), table, key.options()), h.endpoint(), h.handler(), h.message());
        } catch (RuntimeException e) {
            owner.handOffFailed(this, e);
        }
    }

    /**
     * Lets go of the lock, first sending what receiving threads handed off meanwhile. Checking
     * again after unlocking, and taking the lock again if needed, leaves no RSR behind. What it
     * leaves held when it throws, its caller lets go of ({@link Locks}).
     */
    private void release() {
        do {
            sendHandOffs();
            trimIfDue();
            lock.unlock();
        } while ((!handOffs.isEmpty() || trimDue) && !retired && lock.tryLock());
        if (retired && !lock.isHeldByCurrentThread()) {
            HandOffs.HandOff h;
            while ((h = handOffs.poll()) != null) {
                forward(h);
            }
        }
        payLoans();
    }

    /**
     * Lets go of the lock on a thread that must not send (a method's, the control thread, the
     * shell): RSRs handed off meanwhile go from the context's executor instead, since sending may
     * connect or wait for the peer.
     */
    void unlockAndHandOver() {
        do {
            trimIfDue();
            lock.unlock();
        } while (trimDue && lock.tryLock());
        if (!handOffs.isEmpty() && !lock.isHeldByCurrentThread()) {
            owner.moveLater(this);
        }
        payLoans();
    }

    /** Lets go of what the peer acknowledged, if an acknowledgement asked for it. Caller holds the lock. */
    private void trimIfDue() {
        if (trimDue) {
            trimDue = false;
            store.trim();
        }
    }

    /** Gives the application back the bytes it lent RSRs that were let go of, once this thread holds no lock of the flow. */
    private void payLoans() {
        if (!lock.isHeldByCurrentThread()) {
            store.payLoans();
        }
    }

    /** Numbers and sends one RSR. Caller holds the lock. @return {@code false} if retired */
    private boolean sendLocked(int endpoint, int handler, MessageBufferImpl message) {
        if (retired) {
            return false;
        }
        store.trim();
        if (store.full()) {
            awaitAcknowledgements(endpoint);
        }
        if (binder.stale() || binder.probeDue()) {
            try {
                binder.bind(endpoint);
            } catch (RuntimeException noRoute) {
                strandIfPending(noRoute);
                throw noRoute;
            }
        }
        BoundStack binding = binder.binding();
        if (binding == BoundStack.LOCAL) {
            endpoints.deliverLocal(endpoint, handler, message);
            return true;
        }
        Descriptor elsewhere = binder.elsewhere(message.length());
        if (elsewhere != null) {
            if (settled()) {
                binding = binder.moveTo(elsewhere);
            }
            // Sizes are mixing: the next RSRs ask for their acknowledgements, so the next one to
            // move waits for the last one's, at most a round trip, rather than take the old stack.
            askingToMove = ACK_EVERY;
        }
        boolean askAck = askingToMove > 0;
        if (askAck) {
            askingToMove--;
        }
        if (message.lent() != null
            && (message.length() <= RetransmitStore.SMALL_COPY || binding.channel().deliversOnSend())) {
            // Kept as a copy anyway, or delivered before the send returns: no use keeping the loan.
            message.flatten();
        }
        if (sentBeforeCopy(binding, endpoint, handler, message, askAck)) {
            return true;
        }
        Pending p = keep(binding, endpoint, handler, message, next++);
        try {
            transmit(p, askAck);
        } catch (RuntimeException failed) {
            if (!binder.stale()) {
                // The connection refused this frame (full, or a transform failed on it) and
                // stays usable: the sender hears of it, the flow carries on.
                forgetLast(p);
                throw failed;
            }
            try {
                binder.bind(endpoint);
            } catch (RuntimeException noRoute) {
                noRoute.addSuppressed(failed);
                forgetLast(p);
                strandIfPending(noRoute);
                throw noRoute;
            }
        }
        if (binder.binding().channel().deliversOnSend()) {
            store.clear();
        }
        return true;
    }

    /**
     * Sends a small RSR straight from the sender's buffer and keeps its copy after, so a reply
     * from an inline handler reaches the wire without waiting for the copy. Not on a connection
     * that delivers on send: a handler there may send on this flow before the copy is kept.
     * Caller holds the lock.
     *
     * @return whether the RSR was sent and kept; {@code false}, with nothing sent or numbered, if it
     *     is large, the channel delivers on send, or its connection broke (the caller numbers,
     *     keeps and moves it as any send)
     */
    private boolean sentBeforeCopy(BoundStack binding, int endpoint, int handler, MessageBufferImpl message,
                                   boolean askAck) {
        int length = message.length();
        if (length > RetransmitStore.SMALL_COPY || binding.channel().deliversOnSend()) {
            return false;
        }
        ByteBuffer payload = message.payload();
        // Numbered before it goes: should keeping the copy fail, the next RSR must not reuse the number.
        int sequence = next++;
        try {
            transmit(binding, endpoint, handler, sequence, payload, null, length, message.tables(), message.tableCount(),
                askAck);
        } catch (RuntimeException failed) {
            next = sequence;
            if (binder.stale()) {
                return false;
            }
            message.releasePayload();
            throw failed; // refused and still usable: the sender hears of it, nothing was numbered
        } catch (Error e) {
            keptThrough(e, binding, endpoint, handler, message, sequence); // the RSR may have gone
            return true;
        }
        keep(binding, endpoint, handler, message, sequence); // takes the payload from its start again
        return true;
    }

    /** Keeps an RSR numbered {@code sequence}, whatever Error comes meanwhile. Caller holds the lock. */
    private Pending keep(BoundStack binding, int endpoint, int handler, MessageBufferImpl message, int sequence) {
        try {
            return store.keep(endpoint, handler, message, sequence);
        } catch (Error e) {
            return keptThrough(e, binding, endpoint, handler, message, sequence);
        }
    }

    /**
     * An Error came between numbering an RSR and keeping it, out of the channel's send, such as
     * the JVM's report of a fault on a mapping, which it raises at a later point of the thread that
     * met it (docs/methods.md#shm). A number given and not kept would leave the peer waiting for
     * that RSR for good, and the flow stalled behind it: so the RSR is kept, and the channel is
     * broken as for an Error in its send, so the flow moves and sends it again. Caller holds the
     * lock.
     *
     * @return the RSR as kept
     */
    private Pending keptThrough(Error e, BoundStack binding, int endpoint, int handler, MessageBufferImpl message,
                                int sequence) {
        Pending last = store.last();
        Pending kept = last != null && last.sequence == sequence ? last
            : store.keep(endpoint, handler, message, sequence);
        binding.channel().broken(e);
        return kept;
    }

    /**
     * Sends a kept RSR on the flow's binding. Caller holds the lock.
     *
     * @param requestAck whether to ask for an acknowledgement whatever the counts say
     */
    void transmit(Pending p, boolean requestAck) {
        ByteBuffer tail = RetransmitStore.tail(p);
        transmit(binder.binding(), p.endpoint, p.handler, p.sequence, RetransmitStore.payload(p), tail, p.length,
            p.tables, p.tableCount, requestAck || tail != null);
    }

    /**
     * @param tail lent bytes after {@code payload}, or {@code null}
     * @param requestAck whether to ask for an acknowledgement whatever the counts say: so for lent
     *     bytes, which the application waits to have back
     */
    private void transmit(BoundStack binding, int endpoint, int handler, int sequence, ByteBuffer payload,
                          ByteBuffer tail, int length, EncodedTable[] tables, int tableCount, boolean requestAck) {
        int flags = FrameHeader.FLAG_SEQUENCED;
        int sinceRequest = sequence - lastRequest;
        if (requestAck || sinceRequest >= ACK_EVERY || sinceRequest >= ACK_MIN && bytesSinceRequest >= ACK_EVERY_BYTES
            || store.halfFull()) {
            flags |= FrameHeader.FLAG_ACK_REQUEST;
            lastRequest = sequence;
            bytesSinceRequest = 0;
            ackTimer.requested(sequence);
        }
        bytesSinceRequest += length;
        binding.sender().send(binding.stack(), endpoint, handler, flags, sequence, payload, tail, tables, tableCount);
    }

    /**
     * Drops an RSR its sender is told failed, and gives its number to the next one. A method's
     * send is all or nothing, so the peer never saw it; and numbers without gaps let the peer
     * treat a gap as what it is, frames its connection lost.
     */
    private void forgetLast(Pending p) {
        if (store.forgetLast(p)) {
            next = p.sequence;
        }
    }

    /** Called on a receiving thread: the peer delivered everything up to {@code sequence}. */
    @Override
    public void acknowledged(int sequence) {
        ackTimer.acknowledged(sequence);
        if (store.acknowledged(sequence)) {
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
            if (store.lends()) {
                trimDue = true;
                trimIfFree();
            }
        }
    }

    /**
     * On a receiving thread: lets go of what the peer acknowledged now, unless a sender holds the
     * lock, who then does it before letting go ({@link #trimDue}).
     */
    private void trimIfFree() {
        if (lock.isHeldByCurrentThread()) {
            return; // in the middle of a send that received meanwhile: it trims as it lets go
        }
        try {
            if (lock.tryLock()) {
                unlockAndHandOver();
            }
        } finally {
            Locks.unlockTo(lock, 0);
        }
    }

    /**
     * Whether the peer acknowledged everything sent, so the next RSR may take another stack and
     * still arrive after them: it is delivered only once all before it were. Waits, bounded, for
     * the acknowledgement if the last RSR asked for it and this thread may wait: a receiving thread
     * may be the one that would read it. Caller holds the lock.
     */
    private boolean settled() {
        store.trim();
        if (store.isEmpty()) {
            return true;
        }
        if (lastRequest != next - 1 || ReceivingThread.now()) {
            return false;
        }
        long deadline = System.nanoTime() + SETTLE_NANOS;
        waiter = Thread.currentThread();
        try {
            // Looked at again after the waiter is set: an acknowledgement before that woke nobody.
            // A connection that breaks, or a method that leaves, wakes nobody either: hence slices.
            for (store.trim(); !store.isEmpty() && !binder.stale() && deadline - System.nanoTime() > 0; store.trim()) {
                LockSupport.parkNanos(this, Math.min(SETTLE_SLICE_NANOS, deadline - System.nanoTime()));
            }
        } finally {
            waiter = null;
        }
        return store.isEmpty();
    }

    /** Waits, bounded, for the peer to acknowledge; moves the flow if its connection went. */
    private void awaitAcknowledgements(int endpoint) {
        long deadline = System.nanoTime() + ACK_TIMEOUT_NANOS;
        waiter = Thread.currentThread();
        try {
            while (store.full()) {
                if (binder.stale()) {
                    binder.bind(endpoint);
                } else if (System.nanoTime() - deadline > 0) {
                    throw new LinkException(this + ": the peer acknowledged nothing for "
                        + TimeUnit.NANOSECONDS.toSeconds(ACK_TIMEOUT_NANOS) + " s while " + store.size()
                        + " RSRs (" + store.bytes() + " bytes) wait; it is not reading, or its method lost them");
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                store.trim();
            }
        } finally {
            waiter = null;
        }
    }

    /**
     * Lets go of a departed method or transform: the binding goes, so nothing of it stays
     * reachable, and RSRs waiting for acknowledgement are sent again now over what is left, since
     * nothing else would send them until the application sends again.
     */
    void departed(String methodOrTransform) {
        int held = lock.getHoldCount();
        try {
            lock.lock();
            try {
                binder.departed(methodOrTransform);
            } finally {
                unlockAndHandOver();
            }
        } finally {
            Locks.unlockTo(lock, held);
        }
        recover();
    }

    /**
     * The peer refused the stack this flow is bound to on {@code channel}: the flow lets go of it
     * and stays off it for a while, and RSRs the peer dropped go again over another stack.
     *
     * @return whether the flow was on it and now wants {@link #recover()}
     */
    boolean refused(PeerChannel channel, int stackId, String why) {
        int held = lock.getHoldCount();
        try {
            lock.lock();
            try {
                return binder.refused(channel, stackId, why);
            } finally {
                unlockAndHandOver();
            }
        } finally {
            Locks.unlockTo(lock, held);
        }
    }

    /** What a flow wants done after one of the context's channels closed. */
    enum AfterClose { NOTHING, RETIRED, MOVE }

    /**
     * A channel closed: a flow on it with nothing unacknowledged retires; one with RSRs the peer
     * may not have asks to be moved (by {@link #recover()}, off the closing thread) so they are
     * sent again without waiting for the application's next send.
     *
     * <p>A flow whose lock is held asks to be moved too, once the holder lets go. The holder may
     * be binding the flow (its binding is {@code null} meanwhile) to this very channel, taken from
     * the pool before it closed; and a channel defers RSRs rather than send them, so neither the
     * holder nor anyone after it need ever find the channel closed. Moving a flow that is on an
     * open channel does nothing.
     */
    AfterClose closed(PeerChannel channel) {
        BoundStack bound = binder.binding();
        if (bound != null && bound.channel() != channel) {
            return AfterClose.NOTHING;
        }
        if (bound != null) {
            binder.noteClosed(channel);
        }
        int held = lock.getHoldCount();
        try {
            if (!lock.tryLock()) {
                return owner.closing() ? AfterClose.NOTHING : AfterClose.MOVE;
            }
            try {
                BoundStack now = binder.binding();
                if (now == null || now.channel() != channel) {
                    return AfterClose.NOTHING; // unbound with nobody binding it, or moved already
                }
                if (bound == null) {
                    binder.noteClosed(channel);
                }
                store.trim();
                if (!store.isEmpty() || !handOffs.isEmpty()) {
                    return owner.closing() ? AfterClose.NOTHING : AfterClose.MOVE;
                }
                binder.unbind();
                retired = true;
                return AfterClose.RETIRED;
            } finally {
                unlockAndHandOver();
            }
        } finally {
            Locks.unlockTo(lock, held);
        }
    }

    /**
     * Sends again what waits for acknowledgement, over whatever selection finds now. If nothing
     * works it tries again each second, and after the context's abandon time drops the RSRs and
     * retires: a dead peer must not hold their copies for the life of the context.
     */
    void recover() {
        int held = lock.getHoldCount();
        try {
            lock.lock();
            try {
                ackTimer.forget();
                binder.moving(true);
                store.trim();
                if (!retired && !owner.closing() && !store.isEmpty() && binder.stale()) {
                    binder.rebind();
                }
            } catch (RuntimeException e) {
                binder.stranded(e);
            } catch (Error e) {
                // Moving met something broken beyond a connection (it is reported): try again later, as for no way at all.
                binder.stranded(new LinkException("moving " + this + " failed: " + e, e));
            } finally {
                binder.moving(false);
                release();
            }
        } finally {
            Locks.unlockTo(lock, held);
        }
    }

    /**
     * Retires the flow if nothing of it is in flight and nobody holds it, to make room for a new
     * flow to its peer; a later send through it goes to its successor.
     *
     * @return whether it retired
     */
    boolean retireIfIdle() {
        int held = lock.getHoldCount();
        try {
            if (!lock.tryLock()) {
                return false;
            }
            try {
                store.trim();
                if (retired || !store.isEmpty() || !handOffs.isEmpty()) {
                    return false;
                }
                binder.unbind();
                retired = true;
                return true;
            } finally {
                unlockAndHandOver();
            }
        } finally {
            Locks.unlockTo(lock, held);
        }
    }

    /**
     * On the retry thread, while the flow is on a later entry than one it failed to connect to:
     * looks for that entry as a send would, and moves to it once it works. A flow a sender holds
     * is looked at again later: the sender looks as it sends.
     */
    void probeIdle() {
        int held = lock.getHoldCount();
        try {
            if (!lock.tryLock()) {
                binder.probeIdleAgainLater();
                return;
            }
            try {
                binder.moving(true);
                if (!retired && !owner.closing() && binder.idleProbeDue()) {
                    binder.rebind();
                }
            } catch (RuntimeException noRoute) {
                strandIfPending(noRoute);
            } finally {
                binder.moving(false);
                binder.probeIdleLater();
                unlockAndHandOver();
            }
        } finally {
            Locks.unlockTo(lock, held);
        }
    }

    /** Moves the flow again, from the context's retry thread. */
    void retry() {
        int held = lock.getHoldCount();
        try {
            lock.lock();
            try {
                binder.retrying();
                recover();
            } finally {
                release();
            }
        } finally {
            Locks.unlockTo(lock, held);
        }
    }

    /** A send found no way to the peer: RSRs sent earlier still wait, so keep trying in the background. */
    private void strandIfPending(RuntimeException why) {
        store.trim();
        if (!store.isEmpty() && !retired) {
            binder.stranded(why);
        }
    }

    /** On the retry thread: lets go of large copies beyond the idle pool once sends stopped. */
    private void shrinkCopies() {
        int held = lock.getHoldCount();
        try {
            lock.lock();
            try {
                long again = copies.shrinkIfIdle(retired);
                if (again > 0) {
                    owner.timer.later(this::shrinkCopies, again);
                }
            } finally {
                unlockAndHandOver();
            }
        } finally {
            Locks.unlockTo(lock, held);
        }
    }

    /**
     * @return RSRs sent and not yet acknowledged; {@value #BUSY} if a sender held the flow through
     *     {@link #REPORT_WAIT_NANOS}
     */
    public int unacknowledged() {
        Counts counts = counts(System.nanoTime() + REPORT_WAIT_NANOS);
        return counts == null ? BUSY : counts.unacknowledged();
    }

    /**
     * @param deadline when ({@link System#nanoTime}) to stop waiting for a sender that holds the flow
     * @return the RSRs sent and unacknowledged and what the flow is bound to, for the shell; {@code busy}
     *     for the counts of a flow a sender held until {@code deadline}
     */
    String describe(long deadline) {
        RoundTrips.Snapshot rtt = ackTimer.roundTrips().snapshot();
        Counts counts = counts(deadline);
        SizeChoices bySize = binder.bySize();
        return String.format("%016x %-36s %-12s %10s %10s %8s %8s%s", id, key.peer(), binder.where(), rtt.p50(),
            rtt.p99(), counts == null ? "busy" : counts.sent(), counts == null ? "busy" : counts.unacknowledged(),
            bySize == null ? "" : "  by size: " + bySize);
    }

    /** What a report reads of the flow under its lock. */
    private record Counts(long sent, int unacknowledged) {}

    /**
     * Reads the counts, waiting for a sender that holds the flow until {@code deadline} at most: a
     * report must not hang on a flow whose sender waits for its peer, or never lets go.
     *
     * @return the counts; {@code null} if the lock stayed held, or this thread was interrupted
     */
    private Counts counts(long deadline) {
        int held = lock.getHoldCount();
        try {
            if (!lockBefore(deadline)) {
                return null;
            }
            try {
                store.trim();
                return new Counts(next - 1, store.size());
            } finally {
                unlockAndHandOver();
            }
        } finally {
            Locks.unlockTo(lock, held);
        }
    }

    /**
     * The context closed: what the flow keeps will never be sent again, and bytes the application
     * lent go back to it. A sender that holds the flow through {@link #REPORT_WAIT_NANOS} keeps
     * them, as it may still be writing them.
     */
    void closedWithContext() {
        if (!store.lends()) {
            return; // copies go with the flow
        }
        int held = lock.getHoldCount();
        try {
            if (!lockBefore(System.nanoTime() + REPORT_WAIT_NANOS)) {
                return;
            }
            try {
                store.clear();
            } finally {
                unlockAndHandOver();
            }
        } finally {
            Locks.unlockTo(lock, held);
        }
    }

    private boolean lockBefore(long deadline) {
        try {
            return lock.tryLock(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** @return the peer this flow sends to */
    public ContextId peer() {
        return key.peer();
    }

    /** @return the stack the flow is on now, {@code lz4/tcp} say, or {@code unbound} */
    public String stack() {
        return binder.where();
    }

    /**
     * @return RSRs numbered so far: every RSR the flow took, acknowledged or not; {@value #BUSY} if a
     *     sender held the flow through {@link #REPORT_WAIT_NANOS}
     */
    public long sent() {
        Counts counts = counts(System.nanoTime() + REPORT_WAIT_NANOS);
        return counts == null ? BUSY : counts.sent();
    }

    /** @return the round trips timed on this flow's acknowledgements */
    public RoundTrips roundTrips() {
        return ackTimer.roundTrips();
    }

    @Override
    public String toString() {
        return String.format("flow %016x to %s", id, key.peer());
    }
}
