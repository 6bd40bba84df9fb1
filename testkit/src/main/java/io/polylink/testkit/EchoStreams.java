package io.polylink.testkit;

import io.polylink.Context;
import io.polylink.Endpoint;
import io.polylink.Explanation;
import io.polylink.MessageBuffer;
import io.polylink.PolylinkException;
import io.polylink.Startpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Numbered streams of echo requests, one per sender thread, to a peer context's system endpoint,
 * each echo checked on its way back: what a test or benchmark runs while it swaps methods and
 * transforms underneath. Each sender sends as fast as its window lets it (at most {@code window}
 * RSRs of its own not yet echoed), so the run measures the swap rather than the peer's queues.
 *
 * <p>Traffic runs in <em>phases</em>: {@link #begin} points every sender at a target and a reply
 * startpoint, {@link #end} stops sending, waits (bounded) for the echoes and says what went wrong.
 * An RSR counts as sent only once {@code send} returned; a refused send is tried again with the
 * same number, and the wait counts towards that sender's stall.
 *
 * <p>Request: {@code [replyTo][handler][phase][stream][seq][payload]} to handler {@link #ECHO}; the
 * peer sends {@code [phase][stream][seq][payload]} back to the reply startpoint's sink handler.
 */
public final class EchoStreams implements AutoCloseable {

    /** The system endpoint's echo handler, in every context. */
    public static final int ECHO = 0;
    private static final int SINK = 7;
    private static final long RETRY_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final int KEPT_REFUSALS = 5;
    private static final long MILLISECOND = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * What one phase did.
     *
     * @param sent RSRs whose {@code send} returned
     * @param delivered echoes that came back, copies included
     * @param lost sent but never echoed
     * @param duplicated echoes of a number already echoed
     * @param reordered echoes of a number lower than one already echoed, the first time
     * @param corrupted echoes whose payload is not the one sent
     * @param maxStallNanos the longest any sender waited for {@code send} to take an RSR,
     *     refused attempts included
     * @param maxGapNanos the longest time without any echo while the phase ran
     * @param refused sends that threw (tried again, not counted as sent)
     * @param refusals the first few refusals' messages
     */
    public record Result(String name, long sent, long delivered, long lost, long duplicated, long reordered,
                         long corrupted, long maxStallNanos, long maxGapNanos, long refused, List<String> refusals) {

        /** @return whether every RSR sent came back exactly once and in order */
        public boolean perfect() {
            return lost == 0 && duplicated == 0 && reordered == 0 && corrupted == 0 && delivered == sent;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s: sent %d, delivered %d, lost %d, duplicated %d, reordered %d, corrupted %d, "
                + "longest send stall %.1f ms, longest gap between echoes %.1f ms, refused sends %d%s",
                name, sent, delivered, lost, duplicated, reordered, corrupted, maxStallNanos / 1e6, maxGapNanos / 1e6,
                refused, refusals.isEmpty() ? "" : " " + refusals);
        }
    }

    /** One sender's stream in one phase: written by its sender (counts, stall) and by the sink (echoes). */
    private static final class Stream {
        final int window;
        volatile long accepted;
        volatile long distinct;
        /** The sender, while it waits for its window to open. */
        volatile Thread waiter;
        long maxStall;
        /** Corruption is counted per phase, not here. */
        final SequenceCheck check = new SequenceCheck();

        Stream(int window) {
            this.window = window;
        }

        synchronized void echoed(long seq) {
            if (!check.accept(seq, true)) {
                return;
            }
            distinct++;
            Thread w = waiter;
            if (w != null && accepted - distinct <= window / 2) {
                LockSupport.unpark(w);
            }
        }
    }

    /** One phase: its targets and streams. */
    private static final class Phase {
        final int id;
        final String name;
        final Startpoint[] targets;
        final Startpoint replyTo;
        final Stream[] streams;
        final AtomicLong echoes = new AtomicLong();
        final AtomicLong lastEcho = new AtomicLong();
        final AtomicLong maxGap = new AtomicLong();
        final AtomicLong refused = new AtomicLong();
        final AtomicLong corrupted = new AtomicLong();
        /** The longest stall over a millisecond since {@link #takeRecentStall} last asked. */
        final AtomicLong recentStall = new AtomicLong();
        /** The longest gap between echoes over a millisecond since {@link #takeRecentGap} last asked. */
        final AtomicLong recentGap = new AtomicLong();
        final List<String> refusals = new CopyOnWriteArrayList<>();
        volatile boolean stopped;

        Phase(int id, String name, List<Startpoint> targets, Startpoint replyTo, int senders, int window) {
            this.id = id;
            this.name = name;
            this.replyTo = replyTo;
            this.targets = new Startpoint[senders];
            this.streams = new Stream[senders];
            for (int i = 0; i < senders; i++) {
                // A startpoint's routes are its own; senders with the same table share one flow.
                this.targets[i] = targets.get(i % targets.size()).copy();
                streams[i] = new Stream(window);
            }
        }

        void echoed(int stream, long seq) {
            long now = System.nanoTime();
            long last = lastEcho.getAndSet(now);
            if (last != 0 && now - last > MILLISECOND) {
                maxGap.accumulateAndGet(now - last, Math::max);
                recentGap.accumulateAndGet(now - last, Math::max);
            }
            streams[stream].echoed(seq);
            echoes.incrementAndGet();
        }

        long sent() {
            long sum = 0;
            for (Stream s : streams) {
                sum += s.accepted;
            }
            return sum;
        }

        boolean allEchoed() {
            for (Stream s : streams) {
                if (s.distinct != s.accepted) {
                    return false;
                }
            }
            return true;
        }

        Result result() {
            long delivered = 0;
            long lost = 0;
            long duplicated = 0;
            long reordered = 0;
            long stall = 0;
            for (Stream s : streams) {
                synchronized (s) {
                    delivered += s.check.delivered();
                    lost += s.accepted - s.distinct;
                    duplicated += s.check.duplicated();
                    reordered += s.check.reordered();
                }
                stall = Math.max(stall, s.maxStall);
            }
            return new Result(name, sent(), delivered, lost, duplicated, reordered, corrupted.get(), stall, maxGap.get(), refused.get(),
                List.copyOf(refusals));
        }
    }

    private final Context context;
    private final int window;
    private final byte[] payload;
    private final Endpoint sink;
    private final Map<Integer, Phase> phases = new ConcurrentHashMap<>();
    private final List<Thread> threads = new ArrayList<>();
    /** 1 for a sender inside a send; {@link #end} waits for them to leave. */
    private final AtomicIntegerArray sending;
    private volatile Phase current;
    private volatile boolean running = true;

    /**
     * Starts {@code senders} threads, idle until {@link #begin}.
     *
     * @param window RSRs a sender may have sent and not yet seen echoed
     * @param payloadBytes bytes of payload per RSR besides the numbering
     */
    public EchoStreams(Context context, int senders, int window, int payloadBytes) {
        if (senders < 1 || window < 1 || payloadBytes < 0) {
            throw new IllegalArgumentException("need at least one sender, a window of at least 1 and a payload "
                + "size >= 0; got " + senders + ", " + window + ", " + payloadBytes);
        }
        this.context = context;
        this.window = window;
        this.payload = SampleData.records(payloadBytes, 7);
        this.sending = new AtomicIntegerArray(senders);
        this.sink = context.createEndpoint().register(SINK, (e, m) -> {
            Phase p = phases.get(m.getInt());
            int stream = m.getInt();
            long seq = m.getLong();
            if (p != null && stream >= 0 && stream < p.streams.length) {
                if (!intact(m)) {
                    p.corrupted.incrementAndGet();
                }
                p.echoed(stream, seq);
            }
        });
        for (int i = 0; i < senders; i++) {
            int stream = i;
            Thread t = new Thread(() -> send(stream), "polylink-echo-sender-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    /** Compares the echoed payload with the one sent, without allocating. */
    private boolean intact(MessageBuffer m) {
        if (m.remaining() != payload.length) {
            return false;
        }
        for (byte b : payload) {
            if (m.getByte() != b) {
                return false;
            }
        }
        return true;
    }

    /** @return the startpoint echoes come back to; edit a copy's table to choose how they travel */
    public Startpoint sink() {
        return sink.startpoint();
    }

    /**
     * Starts a phase: every sender sends numbered RSRs from 0 to its own copy of {@code target},
     * asking for the echo at {@code replyTo} (a copy of {@link #sink()}, perhaps with its table
     * edited).
     *
     * @throws IllegalStateException if a phase is running: {@link #end} it first
     */
    public void begin(String name, Startpoint target, Startpoint replyTo) {
        begin(name, List.of(target), replyTo);
    }

    /**
     * Starts a phase in which sender {@code i} sends to {@code targets.get(i % targets.size())}:
     * e.g. half the senders with a fallback in their table, half without.
     *
     * @throws IllegalStateException if a phase is running: {@link #end} it first
     */
    public synchronized void begin(String name, List<Startpoint> targets, Startpoint replyTo) {
        if (current != null) {
            throw new IllegalStateException("phase " + current.name + " is still running; end it first");
        }
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("no target for phase " + name);
        }
        Phase p = new Phase(phases.size(), name, targets, replyTo, threads.size(), window);
        phases.put(p.id, p);
        current = p;
    }

    /** @return echoes of the running phase so far */
    public long echoes() {
        Phase p = running();
        return p.echoes.get();
    }

    /**
     * Waits until {@code count} more echoes of the running phase came back.
     *
     * @throws IllegalStateException naming the phase's counts if they do not within {@code limit}
     */
    public void awaitEchoes(long count, Duration limit) {
        Phase p = running();
        long target = p.echoes.get() + count;
        long deadline = System.nanoTime() + limit.toNanos();
        while (p.echoes.get() < target) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("echoes stalled: " + count + " more did not come within " + limit
                    + "; " + p.result() + "; the requests' link: " + explainRequests());
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
        }
    }

    /**
     * @return the longest send stall of the running phase since the last call, in nanoseconds,
     *     or 0 if none took over a millisecond: to see which step of a test a stall belongs to
     */
    public long takeRecentStall() {
        return running().recentStall.getAndSet(0);
    }

    /** @return the longest gap between two echoes of the running phase since the last call, in nanoseconds, or 0 */
    public long takeRecentGap() {
        return running().recentGap.getAndSet(0);
    }

    /** @return how the running phase's requests travel now: the first sender's link (its table's senders share a flow) */
    public Explanation explainRequests() {
        return running().targets[0].explain().get(0);
    }

    /** @return the stack the first sender's requests travel on now, or "none" */
    public String requestStack() {
        return explainRequests().chosen().map(e -> e.descriptor().stack()).orElse("none");
    }

    /**
     * Ends the running phase: stops sending, waits up to {@code drain} for every echo, and counts.
     * Echoes that do not come within it are counted lost.
     */
    public synchronized Result end(Duration drain) {
        Phase p = running();
        p.stopped = true;
        current = null;
        long deadline = System.nanoTime() + drain.toNanos();
        while (anySending() || !p.allEchoed()) {
            if (System.nanoTime() - deadline > 0) {
                break;
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
        }
        return p.result();
    }

    private Phase running() {
        Phase p = current;
        if (p == null) {
            throw new IllegalStateException("no phase is running; begin one first");
        }
        return p;
    }

    private void send(int stream) {
        MessageBuffer m = context.allocateBuffer(payload.length + 256);
        long attemptStart = 0;
        Phase last = null;
        while (running) {
            Phase p = current;
            if (p == null) {
                LockSupport.parkNanos(MILLISECOND);
                continue;
            }
            if (p != last) {
                last = p;
                attemptStart = 0;
            }
            Stream s = p.streams[stream];
            if (s.accepted - s.distinct >= window) {
                s.waiter = Thread.currentThread();
                if (s.accepted - s.distinct >= window) {
                    LockSupport.parkNanos(MILLISECOND); // the sink wakes it at half a window
                }
                s.waiter = null;
                continue;
            }
            if (!enter(stream, p)) {
                continue;
            }
            try {
                long seq = s.accepted;
                if (attemptStart == 0) {
                    attemptStart = System.nanoTime();
                }
                p.targets[stream].send(ECHO, m.clear().putStartpoint(p.replyTo).putInt(SINK).putInt(p.id)
                    .putInt(stream).putLong(seq).putRaw(payload, 0, payload.length));
                long stall = System.nanoTime() - attemptStart;
                s.maxStall = Math.max(s.maxStall, stall);
                if (stall > MILLISECOND) {
                    p.recentStall.accumulateAndGet(stall, Math::max);
                }
                attemptStart = 0;
                s.accepted = seq + 1;
            } catch (PolylinkException e) {
                p.refused.incrementAndGet();
                if (p.refusals.size() < KEPT_REFUSALS) {
                    p.refusals.add(e.toString());
                }
                LockSupport.parkNanos(RETRY_PARK_NANOS);
            } finally {
                sending.set(stream, 0);
            }
        }
    }

    /**
     * @return whether the sender may send in {@code p}: not while it is being ended. With
     *     {@link #end}'s writes and reads in the opposite order, either the sender sees the phase
     *     stopped or {@code end} sees the sender sending.
     */
    private boolean enter(int stream, Phase p) {
        sending.set(stream, 1);
        if (p.stopped) {
            sending.set(stream, 0);
            return false;
        }
        return true;
    }

    private boolean anySending() {
        for (int i = 0; i < sending.length(); i++) {
            if (sending.get(i) != 0) {
                return true;
            }
        }
        return false;
    }

    /** Stops the senders (ending a running phase without waiting) and closes the sink. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        Phase p = current;
        if (p != null) {
            p.stopped = true;
        }
        List<String> alive = new ArrayList<>();
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(10));
            if (t.isAlive()) {
                alive.add(t.getName());
            }
        }
        sink.close();
        if (!alive.isEmpty()) {
            throw new IllegalStateException("senders still running 10 s after close (stuck in send?): " + alive);
        }
    }
}
