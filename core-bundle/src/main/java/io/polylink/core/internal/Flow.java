package io.polylink.core.internal;

import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.Explanation;
import io.polylink.LinkException;
import io.polylink.PolylinkException;
import io.polylink.core.internal.buffer.MessageBufferImpl;
import io.polylink.core.internal.buffer.SharedStore;
import io.polylink.core.internal.concurrent.ReceivingThread;
import io.polylink.core.internal.local.LocalMethod;
import io.polylink.core.internal.select.LinkOptions;
import io.polylink.core.internal.select.StackSelector;
import io.polylink.core.internal.wire.EncodedTable;
import io.polylink.core.internal.wire.FrameHeader;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.BitSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The ordered, acknowledged stream of RSRs from this context to one peer under one table and one
 * set of link settings: every startpoint target with the same three shares it, and so one
 * selection and one order.
 *
 * <p>Each RSR gets the next sequence number and a copy of it is kept until the peer acknowledges
 * it; for a large buffer sent more than once, its store is kept instead of a copy
 * ({@link MessageBufferImpl#share}). When the flow moves (its method or a transform left, was
 * replaced, its connection broke, or a preferable entry became usable), it announces itself on
 * the new connection and sends every unacknowledged RSR again, in order, before anything new;
 * the peer drops the copies it already delivered. So a method can go while RSRs flow and none is
 * lost, duplicated or reordered.
 *
 * <p>Acknowledgements arrive on receiving threads and never take the flow's lock: a sender may
 * hold it while blocked on a full connection that only a receiving thread can drain.
 */
final class Flow {

    /**
     * What makes targets share a flow. The table by its id, not its instance: each connection
     * decodes its own copy of a table, and copies of one table must share one flow.
     */
    record Key(ContextId peer, long table, LinkOptions options) {}

    /** Where a flow's RSRs go: a stack over a channel, or plain {@code local}. */
    record Binding(Channel channel, StackBinding stack) {
        static final Binding LOCAL = new Binding(null, null);
    }

    /**
     * Ask for an acknowledgement at least this often, so copies are dropped while RSRs flow. Each
     * acknowledgement wakes the sending context's I/O thread, which then spins a while: one per
     * 256 KiB kept it busy through a 64 KiB stream, taking a core the sending thread needed, and
     * tcp streamed 20-40% slower than at one per MiB. What a stream keeps is mostly what is in
     * flight anyway (queue and socket buffers, megabytes).
     *
     * <p>By bytes, every 16 MiB but not before {@link #ACK_MIN} RSRs, so a stream of 64 KiB RSRs asks
     * every {@link #ACK_EVERY}th (4 MiB): each answer is read on the sender's side while its sending
     * thread writes the same socket, and that read waits for the write in the kernel's socket lock,
     * to be woken by it; on shm it costs the receiver a wake-up datagram. Against every 2 MiB, in
     * one process pair alternating the two: tcp 64 KiB streams 4.2-5.3 against 3.4-3.8 GB/s (5 of
     * 5), 256 KiB 4.7-7.9 against 3.2-6.4 (3 of 3), shm 64 KiB 13.7-22.3 against 10.5-17.5 (3 of
     * 3); 1 MiB RSRs, asking every fourth or every eighth, streamed the same. The rounds before,
     * every MiB had every RSR of a 1 MiB stream ask (2 MiB took shm's 64 KiB streams from 5.5-9.2
     * to 10-13 GB/s, tcp's 1 MiB from 1.5-2.6 to 3.0-4.1), and 4 MiB had looked slower for tcp's
     * 64 KiB stream, a measurement this one's alternation did not repeat. Once a sent-again buffer
     * was no longer copied, 16 MiB against 8 streamed 1 MiB RSRs faster in 8 of 10 alternated tcp
     * process pairs (means 7.4 against 6.5 GB/s); asking every 256th 64 KiB RSR instead of every
     * 64th gained nothing (3 of 6 pairs).
     */
    private static final int ACK_EVERY = 64;
    private static final int ACK_EVERY_BYTES = 16 << 20;
    private static final int ACK_MIN = 4;
    /** Beyond these the peer is not acknowledging: senders wait rather than keep copying. */
    private static final int MAX_PENDING = 1 << 16;
    private static final long MAX_PENDING_BYTES = 64L << 20;
    private static final long ACK_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** How often a flow that fell back looks whether an earlier entry became usable. */
    private static final long PROBE_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** The longest wait between background connects to an entry that failed to connect. */
    private static final long MAX_RECONNECT_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** How long a stack the peer refused stays refused before this flow tries it again. */
    private static final long REFUSAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int MOVE_ATTEMPTS = 3;
    /**
     * Copies of up to {@link #SMALL_COPY} kept for reuse: at least what one acknowledgement frees
     * in a steady exchange ({@link #ACK_EVERY}), and at most 1 MiB of arrays, what the sixteen
     * copies of up to 64 KiB kept before could hold. With sixteen, a ping-pong of small RSRs
     * allocated a copy for three sends in four.
     */
    private static final int MAX_SPARE = 1024;
    private static final long MAX_SPARE_BYTES = 1L << 20;
    /**
     * A copy larger than this is kept for reuse only while the flow's copies, pending and spare,
     * stay within {@link #MAX_PENDING_BYTES}. Not 64 KiB: acknowledgements free a stream's copies
     * in bursts of megabytes, and sixteen 64 KiB copies (what {@link #MAX_SPARE_BYTES} holds) left
     * most sends of such a stream allocating.
     */
    private static final int SMALL_COPY = 16 * 1024;
    /**
     * Large copies kept for reuse once sends stop for {@link #SHRINK_AFTER_MS}, in bytes. While
     * RSRs flow the pool may hold whatever one acknowledgement frees, up to the pending bound: a
     * stream of large RSRs then reuses the copies the peer acknowledged instead of allocating
     * (and having the JVM zero) one per send, which cost more than the copy itself at 1 MiB.
     * Acknowledgements lag whenever the peer's thread lacks a core of its own for a few
     * milliseconds; with the pool capped at 16 MiB, a 64 KiB shm stream in spin mode then spent
     * 6% of the machine's time zeroing fresh copies.
     */
    private static final long IDLE_SPARE_LARGE_BYTES = 4L << 20;
    private static final long SHRINK_AFTER_MS = 1000;
    private static final VarHandle ACKED;

    static {
        try {
            ACKED = MethodHandles.lookup().findVarHandle(Flow.class, "acked", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A numbered RSR kept until acknowledged; recycled after. */
    private static final class Pending {
        int sequence;
        int endpoint;
        int handler;
        /**
         * The copy; direct above {@link #SMALL_COPY}, because a socket write takes direct memory as
         * it is and first copies a heap buffer into a direct one: a 64 KiB tcp stream ran 20% faster.
         */
        ByteBuffer copy = ByteBuffer.allocate(64);
        /** The sender's store, kept instead of a copy, and a view of it; or {@code null}. */
        SharedStore held;
        ByteBuffer view;
        int length;
        EncodedTable[] tables;
        int tableCount;
    }

    /** An RSR a receiving thread handed off, with its own copy of the message. */
    private record HandOff(int endpoint, int handler, MessageBufferImpl message) {}

    private final ContextRuntime runtime;
    private final Key key;
    private final EncodedTable table;
    private final long id;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    /** RSRs from receiving threads that found the lock held: see {@link #handOff}. */
    private final ConcurrentLinkedQueue<HandOff> handOffs = new ConcurrentLinkedQueue<>();
    private final ArrayDeque<Pending> spare = new ArrayDeque<>();
    private long spareBytes;
    /** Acknowledged copies above {@link #SMALL_COPY}, most recently used last. */
    private final ArrayDeque<Pending> spareLarge = new ArrayDeque<>();
    private long spareLargeBytes;
    /** A shrink of {@link #spareLarge} is scheduled; guarded by {@link #lock}. */
    private boolean shrinkDue;
    private long lastLargeSend;
    private long pendingBytes;
    private int next = 1;
    private int lastRequest;
    private long bytesSinceRequest;
    @SuppressWarnings("unused") // through ACKED
    private volatile int acked;
    private volatile Thread waiter;

    private volatile Binding binding;
    private int generation;
    private volatile Explanation explanation;
    private int chosenIndex;
    /**
     * Whether an entry before the chosen one might become usable. Tables start with {@code local},
     * which a flow to another context can never use: without this every send of every flow would
     * read the clock to see whether a probe is due.
     */
    private boolean betterPossible;
    private BitSet connectFailed = new BitSet();
    private long probeAt;
    /** When to connect again, in the background, to a better entry that failed to connect. */
    private long reconnectAt;
    private long reconnectBackoff = PROBE_NANOS;
    /** The stack the peer last refused, why, and until when; guarded by {@link #lock}. */
    private String refusedStack;
    private String refusedWhy;
    private long refusedUntil;
    /** A background connect is under way: one at a time. */
    private volatile boolean reconnecting;
    /** The entry a background connect reached since the flow was bound, or -1. */
    private volatile int reconnected = -1;
    private int lastEndpoint;
    private volatile boolean retired;
    /** Why the flow's last connection failed, until it is bound again: said if moving fails. */
    private volatile String brokenBy;
    /** The thread moving the flow on the context's behalf, not for a send: it keeps brokenBy. */
    private Thread mover;
    /** When moving in the background first failed, since the flow last had a way to its peer. */
    private long strandedSince;
    private boolean stranded;
    /** A retry is scheduled: one at a time, however many failures asked for it. */
    private boolean retrying;

    Flow(ContextRuntime runtime, Key key, EncodedTable table, long id) {
        this.runtime = runtime;
        this.key = key;
        this.table = table;
        this.id = id;
    }

    long id() {
        return id;
    }

    Key key() {
        return key;
    }

    EncodedTable table() {
        return table;
    }

    boolean retired() {
        return retired;
    }

    /** The sequence number the peer should expect first on a connection this flow moves to. */
    int firstUnacknowledged() {
        return pending.isEmpty() ? next : pending.peekFirst().sequence;
    }

    /**
     * Binds the flow if it is not bound for the context's current generation.
     *
     * @return the route for one target and the explanation of the binding
     * @throws io.polylink.NoApplicableMethodException if no entry can be used
     */
    StackSelector.Selection<Route> route(int endpoint) {
        if (retired) {
            return runtime.flow(key.peer(), table, key.options()).route(endpoint);
        }
        if (!lock.tryLock()) {
            if (ReceivingThread.now() && explanation != null) {
                // Not waiting for the holder: see handOff. Sends through this route bind the flow.
                return new StackSelector.Selection<>(explanation(endpoint),
                    new FlowRoute(runtime, this, endpoint, runtime.generation()), new BitSet());
            }
            lock.lock();
        }
        try {
            if (stale()) {
                bind(endpoint);
            }
            Route route = binding == Binding.LOCAL
                ? new LocalRoute(runtime, endpoint, generation)
                : new FlowRoute(runtime, this, endpoint, generation);
            return new StackSelector.Selection<>(explanation(endpoint), route, connectFailed);
        } finally {
            release();
        }
    }

    /** @return why the flow is where it is, for one of its targets; {@code null} before it is bound */
    Explanation explanation(int endpoint) {
        Explanation e = explanation;
        return e == null || e.endpoint() == endpoint ? e
            : new Explanation(e.target(), endpoint, e.policy(), e.entries());
    }

    /**
     * Numbers and sends one RSR; see {@link io.polylink.Startpoint#send}.
     *
     * @return {@code false}, sending nothing, if the flow retired: the caller sends through the
     *     context's flow for the key, which never has another one beside it
     */
    boolean send(int endpoint, int handler, MessageBufferImpl message) {
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
    }

    /**
     * Sends an RSR from a receiving thread that found the lock held. Such a thread must never
     * wait for it: the holder may be waiting for the peer (a transform's handshake, room in a
     * full connection), and the receiving thread is the one that would read the peer's answer;
     * it once stalled flows for whole handshake timeouts. The RSR, copied, goes out when the
     * holder lets go of the lock, before anything sent after it.
     */
    private void handOff(int endpoint, int handler, MessageBufferImpl message) {
        handOffs.add(new HandOff(endpoint, handler, message.sendableCopy()));
        if (lock.tryLock()) {
            release();
        }
    }

    /** Sends the RSRs handed off while the lock was held, in order. Caller holds the lock. */
    private void sendHandOffs() {
        HandOff h;
        while (!retired && (h = handOffs.poll()) != null) {
            try {
                if (!sendLocked(h.endpoint(), h.handler(), h.message())) {
                    forward(h);
                }
            } catch (RuntimeException e) {
                runtime.handOffFailed(this, e);
            }
        }
    }

    /** An RSR handed off to a flow that retired meanwhile goes to its successor, as a send would. */
    private void forward(HandOff h) {
        try {
            new FlowRoute(runtime, runtime.flow(key.peer(), table, key.options()), h.endpoint(), runtime.generation())
                .send(h.handler(), h.message());
        } catch (RuntimeException e) {
            runtime.handOffFailed(this, e);
        }
    }

    /**
     * Lets go of the lock, first sending what receiving threads handed off meanwhile. Checking
     * again after unlocking, and taking the lock again if needed, leaves no RSR behind.
     */
    private void release() {
        do {
            try {
                sendHandOffs();
            } finally {
                lock.unlock();
            }
        } while (!handOffs.isEmpty() && !retired && lock.tryLock());
        if (retired && !lock.isHeldByCurrentThread()) {
            HandOff h;
            while ((h = handOffs.poll()) != null) {
                forward(h);
            }
        }
    }

    /**
     * Lets go of the lock on a thread that must not send (a method's, the control thread, the
     * shell): RSRs handed off meanwhile go from the context's executor instead, since sending may
     * connect or wait for the peer.
     */
    private void unlockAndHandOver() {
        lock.unlock();
        if (!handOffs.isEmpty() && !lock.isHeldByCurrentThread()) {
            runtime.moveLater(this);
        }
    }

    /** Numbers and sends one RSR. Caller holds the lock. @return {@code false} if retired */
    private boolean sendLocked(int endpoint, int handler, MessageBufferImpl message) {
        if (retired) {
            return false;
        }
        trim();
        if (pending.size() >= MAX_PENDING || pendingBytes >= MAX_PENDING_BYTES) {
            awaitAcknowledgements(endpoint);
        }
        if (stale() || probeDue()) {
            try {
                bind(endpoint);
            } catch (RuntimeException noRoute) {
                strandIfPending(noRoute);
                throw noRoute;
            }
        }
        if (binding == Binding.LOCAL) {
            new LocalRoute(runtime, endpoint, generation).send(handler, message);
            return true;
        }
        if (sentBeforeCopy(endpoint, handler, message)) {
            return true;
        }
        Pending p = record(endpoint, handler, message);
        if (p.length > SMALL_COPY) {
            lastLargeSend = System.nanoTime();
        }
        try {
            transmit(p, false);
        } catch (RuntimeException failed) {
            if (!stale()) {
                // The connection refused this frame (full, or a transform failed on it) and
                // stays usable: the sender hears of it, the flow carries on.
                forgetLast(p);
                throw failed;
            }
            try {
                bind(endpoint);
            } catch (RuntimeException noRoute) {
                noRoute.addSuppressed(failed);
                forgetLast(p);
                strandIfPending(noRoute);
                throw noRoute;
            }
        }
        if (binding.channel().deliversOnSend()) {
            trimAll();
        }
        return true;
    }

    /** Called on a receiving thread: the peer delivered everything up to {@code sequence}. */
    void acknowledged(int sequence) {
        int current;
        do {
            current = (int) ACKED.getVolatile(this);
            if (sequence - current <= 0) {
                return;
            }
        } while (!ACKED.compareAndSet(this, current, sequence));
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    /**
     * Lets go of a departed method or transform: the binding goes, so nothing of it stays
     * reachable, and RSRs waiting for acknowledgement are sent again now over what is left, since
     * nothing else would send them until the application sends again.
     */
    void departed(String methodOrTransform) {
        lock.lock();
        try {
            if (binding != null && binding.channel() != null && uses(binding, methodOrTransform)) {
                binding = null;
            }
        } finally {
            unlockAndHandOver();
        }
        recover();
    }

    /**
     * The peer refused the stack this flow is bound to on {@code channel}: the flow lets go of it
     * and stays off it for a while, and RSRs the peer dropped go again over another stack.
     *
     * @return whether the flow was on it and now wants {@link #recover()}
     */
    boolean refused(Channel channel, int stackId, String why) {
        lock.lock();
        try {
            Binding b = binding;
            if (b == null || b.channel() != channel || b.stack().id() != stackId) {
                return false;
            }
            refusedStack = explanation.chosen().map(e -> e.descriptor().stack()).orElse(null);
            refusedWhy = channel + " refused " + refusedStack + ": " + why;
            refusedUntil = System.nanoTime() + REFUSAL_NANOS;
            brokenBy = refusedWhy;
            binding = null;
            return true;
        } finally {
            unlockAndHandOver();
        }
    }

    /**
     * Binds the chosen entry, unless the peer refused its stack lately: selection then takes the
     * next entry, as for one that failed to connect. Caller holds the lock.
     */
    private Binding bindUnlessRefused(Descriptor chosen) {
        if (chosen.stack().equals(refusedStack) && System.nanoTime() - refusedUntil < 0) {
            throw new LinkException(refusedWhy);
        }
        return runtime.bind(this, chosen);
    }

    private static boolean uses(Binding b, String name) {
        return b.channel().connection().method().equals(name)
            || Arrays.asList(b.stack().transforms().split("\\+")).contains(name);
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
    AfterClose closed(Channel channel) {
        Binding bound = binding;
        if (bound != null && bound.channel() != channel) {
            return AfterClose.NOTHING;
        }
        if (bound != null) {
            noteClosed(channel);
        }
        if (!lock.tryLock()) {
            return runtime.closing() ? AfterClose.NOTHING : AfterClose.MOVE;
        }
        try {
            Binding now = binding;
            if (now == null || now.channel() != channel) {
                return AfterClose.NOTHING; // unbound with nobody binding it, or moved already
            }
            if (bound == null) {
                noteClosed(channel);
            }
            trim();
            if (!pending.isEmpty() || !handOffs.isEmpty()) {
                return runtime.closing() ? AfterClose.NOTHING : AfterClose.MOVE;
            }
            binding = null;
            retired = true;
            return AfterClose.RETIRED;
        } finally {
            unlockAndHandOver();
        }
    }

    private void noteClosed(Channel channel) {
        Throwable cause = channel.failure();
        brokenBy = cause == null ? null : channel + " failed: " + cause.getMessage();
    }

    /**
     * Sends again what waits for acknowledgement, over whatever selection finds now. If nothing
     * works it tries again each second, and after the context's abandon time drops the RSRs and
     * retires: a dead peer must not hold their copies for the life of the context.
     */
    void recover() {
        lock.lock();
        mover = Thread.currentThread();
        try {
            trim();
            if (!retired && !runtime.closing() && !pending.isEmpty() && stale()) {
                bind(lastEndpoint);
            }
        } catch (RuntimeException e) {
            strandedFor(e);
        } finally {
            mover = null;
            release();
        }
    }

    /** Moves the flow again, from the context's retry thread. */
    void retry() {
        lock.lock();
        try {
            retrying = false;
            recover();
        } finally {
            release();
        }
    }

    /** A send found no way to the peer: RSRs sent earlier still wait, so keep trying in the background. */
    private void strandIfPending(RuntimeException why) {
        trim();
        if (!pending.isEmpty() && !retired) {
            strandedFor(why);
        }
    }

    private void strandedFor(RuntimeException why) {
        long now = System.nanoTime();
        if (!stranded) {
            stranded = true;
            strandedSince = now;
        }
        long left = runtime.abandonAfterMs() - TimeUnit.NANOSECONDS.toMillis(now - strandedSince);
        if (left > 0) {
            if (!retrying) {
                retrying = true;
                runtime.flowStranded(this, pending.size(), left, why);
            }
            return;
        }
        int dropped = pending.size();
        long bytes = pendingBytes;
        trimAll();
        spare.clear();
        binding = null;
        retired = true;
        runtime.flowAbandoned(this, dropped, bytes, why);
    }

    /** @return the unacknowledged RSRs and what the flow is bound to, for the shell */
    String describe() {
        lock.lock();
        try {
            trim();
            String where = binding == null ? "unbound"
                : binding == Binding.LOCAL ? "local"
                : (binding.stack().transforms().isEmpty() ? "" : binding.stack().transforms().replace('+', '/') + "/")
                    + binding.channel().connection().method();
            return String.format("%016x %-36s %-12s %8d %8d", id, key.peer(), where, next - 1, pending.size());
        } finally {
            unlockAndHandOver();
        }
    }

    private boolean stale() {
        return binding == null || generation != runtime.generation()
            || binding.channel() != null && !binding.channel().isOpen();
    }

    /**
     * A flow on a later entry than the first looks again, now and then, for a better one. A better
     * entry refused only because connecting failed is connected to again in the background, with
     * backoff, and taken once that works: trying it on the sender's thread would stall sends for
     * a connect timeout each time.
     */
    private boolean probeDue() {
        if (!betterPossible || System.nanoTime() - probeAt < 0) {
            return false;
        }
        probeAt = System.nanoTime() + PROBE_NANOS;
        int better = runtime.selector.explain(key.peer(), lastEndpoint, table.table(), key.options())
            .chosen().map(Explanation.Entry::index).orElse(-1);
        if (better < 0 || better >= chosenIndex) {
            return false;
        }
        if (!connectFailed.get(better) || reconnected == better) {
            return true;
        }
        long now = System.nanoTime();
        if (!reconnecting && now - reconnectAt >= 0) {
            reconnecting = true;
            reconnectAt = now + reconnectBackoff;
            reconnectBackoff = Math.min(2 * reconnectBackoff, MAX_RECONNECT_NANOS);
            runtime.reconnectLater(this, table.table().get(better), better);
        }
        return false;
    }

    private boolean betterPossible(int chosen) {
        for (int i = 0; i < chosen; i++) {
            if (!table.table().get(i).method().equals(LocalMethod.NAME)) {
                return true;
            }
        }
        return false;
    }

    /** Called from the context's retry thread with the outcome of a background connect. */
    void reconnected(int index, boolean works) {
        if (works) {
            reconnected = index;
        }
        reconnecting = false;
    }

    /**
     * Selects, binds and sends again everything unacknowledged; a few attempts if the new
     * connection fails at once. Caller holds the lock.
     */
    private void bind(int endpoint) {
        lastEndpoint = endpoint;
        noteWhyBroken();
        RuntimeException last = null;
        for (int attempt = 0; attempt < MOVE_ATTEMPTS; attempt++) {
            int now = runtime.generation();
            binding = null;
            StackSelector.Selection<Binding> s;
            try {
                s = runtime.selector.select(key.peer(), endpoint, table.table(), key.options(),
                    this::bindUnlessRefused);
            } catch (PolylinkException e) {
                String broken = brokenBy;
                if (broken == null || Thread.currentThread() == mover) {
                    throw e;
                }
                brokenBy = null; // said once, to the application, like any failure
                throw new LinkException(broken + "; and no other way to the peer works: " + e.getMessage(), e);
            }
            brokenBy = null;
            binding = s.value();
            generation = now;
            explanation = s.explanation();
            chosenIndex = s.chosenIndex();
            betterPossible = betterPossible(chosenIndex);
            connectFailed = s.connectFailed();
            probeAt = System.nanoTime() + PROBE_NANOS;
            reconnected = -1;
            if (!connectFailed.isEmpty()) {
                reconnectAt = probeAt;
            } else {
                reconnectBackoff = PROBE_NANOS;
            }
            if (binding == Binding.LOCAL) {
                if (!pending.isEmpty()) {
                    throw new IllegalStateException(this + " chose plain local with RSRs unacknowledged");
                }
                stranded = false;
                return;
            }
            try {
                for (Pending p : pending) {
                    transmit(p, p == pending.peekLast());
                }
                if (binding.channel().deliversOnSend()) {
                    trimAll();
                }
                stranded = false;
                return;
            } catch (RuntimeException e) {
                last = e;
            }
        }
        binding = null;
        throw new LinkException(this + " found no working connection in " + MOVE_ATTEMPTS + " attempts: "
            + last.getMessage(), last);
    }

    /**
     * Keeps why the current connection failed, if it did, before the binding goes: a sender can
     * find it closed before the method has told the core (and {@link #closed} would then find the
     * binding already gone), and its error must still say what happened to it.
     */
    private void noteWhyBroken() {
        Binding old = binding;
        if (brokenBy == null && old != null && old.channel() != null && !old.channel().isOpen()) {
            Throwable cause = old.channel().failure();
            if (cause != null) {
                brokenBy = old.channel() + " failed: " + cause.getMessage();
            }
        }
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
    private boolean sentBeforeCopy(int endpoint, int handler, MessageBufferImpl message) {
        int length = message.length();
        if (length > SMALL_COPY || binding.channel().deliversOnSend()) {
            return false;
        }
        ByteBuffer payload = message.payload();
        // Numbered before it goes: should keeping the copy fail, the next RSR must not reuse the number.
        int sequence = next++;
        try {
            transmit(endpoint, handler, sequence, payload, length, message.tables(), message.tableCount(), false);
        } catch (RuntimeException failed) {
            next = sequence;
            if (stale()) {
                return false;
            }
            message.releasePayload();
            throw failed; // refused and still usable: the sender hears of it, nothing was numbered
        }
        keep(endpoint, handler, message, sequence); // takes the payload from its start again
        return true;
    }

    /** @param requestAck whether to ask for an acknowledgement whatever the counts say */
    private void transmit(Pending p, boolean requestAck) {
        ByteBuffer kept = p.held != null ? p.view : p.copy;
        transmit(p.endpoint, p.handler, p.sequence, kept.clear().limit(p.length), p.length, p.tables, p.tableCount,
            requestAck);
    }

    private void transmit(int endpoint, int handler, int sequence, ByteBuffer payload, int length,
                          EncodedTable[] tables, int tableCount, boolean requestAck) {
        int flags = FrameHeader.FLAG_SEQUENCED;
        int sinceRequest = sequence - lastRequest;
        if (requestAck || sinceRequest >= ACK_EVERY || sinceRequest >= ACK_MIN && bytesSinceRequest >= ACK_EVERY_BYTES
            || pending.size() >= MAX_PENDING / 2 || pendingBytes >= MAX_PENDING_BYTES / 2) {
            flags |= FrameHeader.FLAG_ACK_REQUEST;
            lastRequest = sequence;
            bytesSinceRequest = 0;
        }
        bytesSinceRequest += length;
        binding.channel().send(binding.stack(), endpoint, handler, flags, sequence, payload, tables, tableCount);
    }

    private Pending record(int endpoint, int handler, MessageBufferImpl message) {
        return keep(endpoint, handler, message, next++);
    }

    /** Keeps an RSR numbered {@code sequence}, its store or a copy, until the peer acknowledges it. */
    private Pending keep(int endpoint, int handler, MessageBufferImpl message, int sequence) {
        int length = message.length();
        SharedStore held = length > SMALL_COPY ? message.share() : null;
        Pending p;
        if (held != null) {
            p = spare(0); // a small one: its copy stays unused
            p.held = held;
            p.view = held.view();
        } else {
            ByteBuffer payload = message.payload();
            p = spare(length);
            if (p.copy.capacity() < length) {
                int capacity = Math.max(length, p.copy.capacity() * 2);
                p.copy = capacity > SMALL_COPY ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
            }
            p.copy.clear().put(0, payload, payload.position(), length);
            message.releasePayload();
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
        pendingBytes += length;
        return p;
    }

    /**
     * Drops an RSR its sender is told failed, and gives its number to the next one. A method's
     * send is all or nothing, so the peer never saw it; and numbers without gaps let the peer
     * treat a gap as what it is, frames its connection lost.
     */
    private void forgetLast(Pending p) {
        if (pending.peekLast() == p) {
            pending.pollLast();
            recycle(p);
            next = p.sequence;
        }
    }

    private void trim() {
        int upTo = (int) ACKED.getVolatile(this);
        Pending p;
        while ((p = pending.peekFirst()) != null && p.sequence - upTo <= 0) {
            recycle(pending.pollFirst());
        }
    }

    /** For a connection that delivers before its send returns: nothing to keep. */
    private void trimAll() {
        Pending p;
        while ((p = pending.pollFirst()) != null) {
            recycle(p);
        }
    }

    /** @return a recycled copy from the pool for {@code length}'s size class, or a new one */
    private Pending spare(int length) {
        if (length > SMALL_COPY) {
            Pending p = spareLarge.pollLast();
            if (p != null) {
                spareLargeBytes -= p.copy.capacity();
                return p;
            }
            return new Pending();
        }
        Pending p = spare.poll();
        if (p == null) {
            return new Pending();
        }
        spareBytes -= p.copy.capacity();
        return p;
    }

    private void recycle(Pending p) {
        pendingBytes -= p.length;
        if (p.held != null) {
            p.held.release();
            p.held = null;
            p.view = null;
        }
        if (p.tableCount > 0) {
            Arrays.fill(p.tables, 0, p.tableCount, null);
            p.tableCount = 0;
        }
        if (p.copy.capacity() <= SMALL_COPY) {
            if (spare.size() < MAX_SPARE && spareBytes + p.copy.capacity() <= MAX_SPARE_BYTES) {
                spare.add(p);
                spareBytes += p.copy.capacity();
            }
        } else if (spareLargeBytes + pendingBytes + p.copy.capacity() <= MAX_PENDING_BYTES) {
            spareLarge.addLast(p);
            spareLargeBytes += p.copy.capacity();
            if (spareLargeBytes > IDLE_SPARE_LARGE_BYTES && !shrinkDue) {
                shrinkDue = true;
                runtime.later(this::shrinkSpares, SHRINK_AFTER_MS);
            }
        }
    }

    /** On the retry thread: lets go of large spares beyond the idle pool once sends stopped. */
    private void shrinkSpares() {
        lock.lock();
        try {
            long idleMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastLargeSend);
            if (idleMs < SHRINK_AFTER_MS && !retired) {
                runtime.later(this::shrinkSpares, SHRINK_AFTER_MS - idleMs);
                return;
            }
            shrinkDue = false;
            while (spareLargeBytes > IDLE_SPARE_LARGE_BYTES) {
                spareLargeBytes -= spareLarge.pollFirst().copy.capacity();
            }
        } finally {
            unlockAndHandOver();
        }
    }

    /** @return RSRs sent and not yet acknowledged, for tests */
    int unacknowledged() {
        lock.lock();
        try {
            trim();
            return pending.size();
        } finally {
            unlockAndHandOver();
        }
    }

    /** @return bytes held in large spare copies, for tests */
    long spareLargeBytes() {
        lock.lock();
        try {
            return spareLargeBytes;
        } finally {
            unlockAndHandOver();
        }
    }

    /** Waits, bounded, for the peer to acknowledge; moves the flow if its connection went. */
    private void awaitAcknowledgements(int endpoint) {
        long deadline = System.nanoTime() + ACK_TIMEOUT_NANOS;
        waiter = Thread.currentThread();
        try {
            while (pending.size() >= MAX_PENDING || pendingBytes >= MAX_PENDING_BYTES) {
                if (stale()) {
                    bind(endpoint);
                } else if (System.nanoTime() - deadline > 0) {
                    throw new LinkException(this + ": the peer acknowledged nothing for "
                        + TimeUnit.NANOSECONDS.toSeconds(ACK_TIMEOUT_NANOS) + " s while " + pending.size()
                        + " RSRs (" + pendingBytes + " bytes) wait; it is not reading, or its method lost them");
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                trim();
            }
        } finally {
            waiter = null;
        }
    }

    @Override
    public String toString() {
        return String.format("flow %016x to %s", id, key.peer());
    }
}
