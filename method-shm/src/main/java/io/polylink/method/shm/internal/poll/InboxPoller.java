package io.polylink.method.shm.internal.poll;

import io.polylink.method.shm.internal.connect.Connections;
import io.polylink.method.shm.internal.connect.Reassembly;
import io.polylink.method.shm.internal.connect.SendCounter;
import io.polylink.method.shm.internal.ring.Inbox;
import io.polylink.method.shm.internal.segment.OwnInbox;
import io.polylink.method.shm.internal.segment.Segment;
import io.polylink.spi.ProblemLog;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The agent that reads this context's inbox, on its own thread ({@code polylink-shm-io}). Each
 * turn {@link #doWork} hands the records that came to their connections, which give frames to the
 * core on this thread. While the ring stays empty the poller idles as its {@link Backoff} says:
 * it spins, yields, or parks until a producer pokes its {@link WakeSocket} or its tick is due.
 * Every {@link #TICK_NANOS} the tick frees what dead producers held and looks for records left
 * unfinished.
 *
 * <p>A parked poller is woken by a one-byte datagram on the loopback port in its inbox header,
 * sent only by the producer that finds the "parked" flag set: an idle context costs no CPU, and a
 * sender never waits for a polling interval.
 *
 * <p>Other threads may read the inbox too, through {@link #progress}: a thread that waits for an
 * answer then takes it from the ring itself, with no hand-off and no wake-up. One thread reads at
 * a time, whichever holds the receive token: the poller holds it from waking to parking, a caller
 * for one pass. While callers keep coming the poller stands back: where it would park, it lets go
 * of the token and naps (the method's {@code standBackMs}, a millisecond by default) with its
 * wake-up unarmed, so producers send no datagrams, then takes a turn; after a nap in which no
 * caller came it idles as before. Records a
 * caller leaves wait at most a nap for the poller, and about {@link #HAND_BACK_GRACE_NANOS} once the
 * caller {@linkplain #handBack hands receiving back}.
 *
 * <p>Nothing a connection or a segment throws ends the thread: the turn's failure is counted and
 * logged, the mappings are looked over ({@link #survive}), and the next turn comes. An inbox found
 * corrupt, cut short (looked at through its descriptor while the ring is idle, at most once a
 * {@link #VERIFY_NANOS}) or no longer under its name (once a second) is abandoned for a fresh one,
 * and its connections fail, so their links move. While no inbox can be made the
 * poller tries again once a second. Should going on fail too, the method is told, and fails
 * visibly.
 */
public final class InboxPoller implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("io.polylink.method.shm");
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** How often an idle poller asks its inbox's descriptor whether the file was cut short. */
    private static final long VERIFY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Ticks between looks whether the inbox's name still names it; also how long a poller without an inbox waits. */
    private static final int NAME_TICKS = 10;
    private static final int BATCH = 256;
    /**
     * The poller reads the clock once in this many turns (a power of two), since a read costs as
     * much as an empty poll; see docs/performance-notes.md#shm-clock-reads.
     */
    private static final int CLOCK_LOOPS = 64;
    /**
     * How long a poller woken by a {@linkplain #handBack hand-back} waits for callers to come back
     * before it takes over: a thread that starts a request and waits for it at once comes back
     * within microseconds, and keeps receiving itself, with no poller beside it on the cores.
     */
    static final long HAND_BACK_GRACE_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /** How long the poller naps at a time while a caller's pass (a handler it runs) keeps the token. */
    private static final long RETAKE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final VarHandle CALLS;

    static {
        try {
            CALLS = MethodHandles.lookup().findVarHandle(InboxPoller.class, "calls", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final OwnInbox own;
    private final WakeSocket wake;
    private final Backoff backoff;
    private final Connections connections;
    private final Reassembly reassembly;
    private final SendCounter sends;
    private final int unblockTimeoutMs;
    /** How long a poller that stands back for callers naps between its turns. */
    private final long napMillis;
    private final ProblemLog problems;
    private final AtomicLong errors;
    private final Consumer<Throwable> ended;
    private final Thread thread;
    private volatile boolean running = true;
    /** Held by the thread that reads the inbox: the poller from waking to parking, a caller for one pass. */
    private final AtomicBoolean receiving = new AtomicBoolean(true);
    /** Counts calls of {@link #progress} (opaque, so a lost count among racing callers is harmless: any change will do). */
    @SuppressWarnings("unused") // through CALLS
    private int calls;
    /** {@link #calls} when the poller last decided how to idle; poller thread only. */
    private int callsSeen;
    /**
     * A caller handed receiving back ({@link #handBack}). Set before reading {@link #standingBack},
     * which the poller sets before reading this: either the poller sees it and does not nap, or the
     * caller sees the nap and ends it.
     */
    private volatile boolean handedBack;
    /** {@link #calls} when receiving was last handed back. */
    private volatile int callsAtHandBack;
    /** The poller naps while callers receive ({@link #standBack}). */
    private volatile boolean standingBack;
    /** No caller came back within the grace after a hand-back: the poller idles as if none came; poller thread only. */
    private boolean takeOver;
    /** {@link System#nanoTime()} of the last turn that read the clock: the heartbeat beats while this moves. */
    private volatile long turnedAt = System.nanoTime();
    /** The inbox, its ring and what is known of its producers: replaced together; {@code null} while there is none. */
    private Segment segment;
    private Inbox inbox;
    private ProducerSlots producers;
    private int ticks;

    /**
     * Starts the poller's thread.
     *
     * @param wake the socket whose port {@code own}'s header names
     * @param reassembly the connections' buffers for split frames, let go on the tick while unused
     * @param sends the frames this context sends, which tell the backoff a conversation from a stream
     * @param napMillis how long the poller naps between its turns while callers receive
     * @param errors the method's error count
     * @param ended told if the thread ends before {@link #close}, with what ended it
     */
    public InboxPoller(OwnInbox own, WakeSocket wake, Backoff backoff, Connections connections, Reassembly reassembly,
                       SendCounter sends, int unblockTimeoutMs, long napMillis, ProblemLog problems,
                       AtomicLong errors, Consumer<Throwable> ended) {
        this.own = own;
        this.wake = wake;
        this.backoff = backoff;
        this.connections = connections;
        this.reassembly = reassembly;
        this.sends = sends;
        this.unblockTimeoutMs = unblockTimeoutMs;
        this.napMillis = napMillis;
        this.problems = problems;
        this.errors = errors;
        this.ended = ended;
        attach(own.segment());
        this.thread = new Thread(this::run, "polylink-shm-io");
        thread.setDaemon(true);
        sends.poller(thread);
        thread.start();
    }

    /** @return {@link System#nanoTime()} when the poller last turned; it stands still while the poller does */
    public long turnedAt() {
        return turnedAt;
    }

    /**
     * Reads the inbox once on the calling thread, unless another thread reads it now.
     *
     * @return how many records (padding included) were consumed; 0 if none, or another thread reads
     */
    public int progress() {
        CALLS.setOpaque(this, (int) CALLS.getOpaque(this) + 1);
        if (!running || !receiving.compareAndSet(false, true)) {
            return 0;
        }
        try {
            return inbox == null ? 0 : doWork();
        } catch (Throwable t) {
            survive(t);
            return 0;
        } finally {
            receiving.setRelease(false);
        }
    }

    /**
     * The threads that called {@link #progress} stop for a while: the poller's nap ends, and unless
     * a caller comes back within {@link #HAND_BACK_GRACE_NANOS} it takes over, its wake-up armed
     * again, rather than after its nap. Any thread; never blocks.
     */
    public void handBack() {
        // Stored only when they change: a rank starting a window of requests hands back at each,
        // and every store here is a fence.
        int at = (int) CALLS.getOpaque(this);
        if (!handedBack || callsAtHandBack != at) {
            callsAtHandBack = at;
            handedBack = true;
        }
        if (standingBack) {
            wake.wakeup();
        }
    }

    /**
     * @return whether a caller read, or tried to read, the inbox since the poller last looked,
     *     unless the callers handed receiving back and did not come back since
     */
    private boolean callersCame() {
        int now = (int) CALLS.getOpaque(this);
        boolean came = now != callsSeen;
        callsSeen = now;
        if (takeOver) {
            takeOver = false;
            return false;
        }
        return came;
    }

    /** Reads {@code fresh} from now on: its ring from its head, with nothing known yet of its producers. */
    private void attach(Segment fresh) {
        segment = fresh;
        inbox = fresh == null ? null : new Inbox(fresh, unblockTimeoutMs);
        producers = fresh == null ? null : new ProducerSlots(fresh, inbox, connections, unblockTimeoutMs, problems,
            errors);
    }

    private void run() {
        try {
            while (running) {
                try {
                    if (inbox != null) {
                        poll();
                    } else {
                        awaitInbox();
                    }
                } catch (Throwable t) {
                    survive(t);
                }
            }
        } catch (Throwable t) {
            // Even going on failed: nothing more can be trusted to go right on this thread.
            if (running) {
                ended.accept(t);
            }
        }
    }

    /** Polls the inbox until it is closed, or there is none. */
    private void poll() throws IOException {
        long lastWork = System.nanoTime();
        long nextTick = lastWork + TICK_NANOS;
        long verifiedAt = lastWork;
        boolean worked = false;
        int sendsSeen = sends.get();
        int answersSeen = sends.byPoller();
        boolean answered = false;
        int loops = 0;
        boolean yielding = false;
        while (running && inbox != null) {
            int records = doWork();
            if (records > 0) {
                worked = true;
                int answers = sends.byPoller();
                answered = answers != answersSeen;
                answersSeen = answers;
            }
            // Most turns end here, without reading the clock.
            if ((++loops & CLOCK_LOOPS - 1) != 0) {
                if (records > 0) {
                    yielding = false;
                } else if (yielding) {
                    Thread.yield();
                } else {
                    Thread.onSpinWait();
                }
                continue;
            }
            long now = System.nanoTime();
            turnedAt = now;
            if (worked) {
                int sent = sends.get();
                backoff.workAfter(now - lastWork, sent - sendsSeen);
                sendsSeen = sent;
                lastWork = now;
                worked = false;
            }
            boolean tick = now - nextTick >= 0;
            if (tick) {
                tick();
                nextTick = now + TICK_NANOS;
            }
            yielding = records == 0 && now - lastWork >= backoff.yieldNanos();
            if (records > 0 || inbox == null) {
                continue;
            }
            if (now - verifiedAt >= VERIFY_NANOS) {
                verifiedAt = now;
                if (!segment.intact()) {
                    renew(cutShort(segment));
                    continue;
                }
            }
            inbox.checkStall(producers, now, tick);
            if (callersCame()) {
                standBack();
            } else if (now - lastWork >= backoff.spinNanos()) {
                park(nextTick - now, answered);
            }
        }
    }

    /**
     * Hands up to {@link #BATCH} committed records to their connections.
     *
     * @return how many records (padding included) were consumed
     */
    private int doWork() {
        try {
            return inbox.poll(producers, BATCH);
        } catch (Inbox.CorruptInboxException e) {
            renew("is corrupt: " + e.getMessage());
            return 0;
        }
    }

    /**
     * Sleeps until a producer pokes or the next tick. The flag is raised before the last look at the
     * ring, and producers look at the flag after committing: one of the two always sees the other.
     * Callers may read the ring meanwhile; the poller returns holding the token again.
     *
     * @param answered whether this thread sent frames while it handled the last records
     */
    private void park(long untilTickNanos, boolean answered) throws IOException {
        Segment parkedOn = segment;
        parkedOn.parked(true);
        if (inbox.ready()) {
            parkedOn.parked(false);
            return;
        }
        // A claimed record not yet committed: its producer pokes when done, but it may have died.
        long millis = inbox.pending() ? 1 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(untilTickNanos));
        receiving.setRelease(false);
        long parkedAt = System.nanoTime();
        try {
            wake.sleep(millis);
        } finally {
            parkedOn.parked(false);
            retake(); // first: a drain that throws must not leave the poller without the token
            wake.drain();
        }
        backoff.parked(System.nanoTime() - parkedAt, answered);
    }

    /**
     * Callers read the ring: naps with the wake-up unarmed, and returns holding the token again.
     * A hand-back ends the nap; if no caller comes back within {@link #HAND_BACK_GRACE_NANOS}, the
     * poller takes over (see {@link #callersCame}).
     */
    private void standBack() throws IOException {
        receiving.setRelease(false);
        standingBack = true;
        try {
            if (!handedBack) {
                wake.sleep(napMillis);
            }
            if (handedBack) {
                handedBack = false;
                int at = callsAtHandBack;
                LockSupport.parkNanos(HAND_BACK_GRACE_NANOS);
                takeOver = (int) CALLS.getOpaque(this) == at;
            }
        } finally {
            standingBack = false;
            retake();
        }
        wake.drain();
    }

    /**
     * Takes the token back from callers, napping while one holds it (a handler it runs may take
     * long). Throws nothing, so the poller never goes on without the token; returns without it
     * only once closed.
     */
    private void retake() {
        while (!receiving.compareAndSet(false, true) && running) {
            LockSupport.parkNanos(RETAKE_NANOS);
        }
    }

    /**
     * Every {@link #TICK_NANOS}: buffers unused for long, producers that died, slots to free, and
     * now and then whether the inbox's name still names it.
     */
    private void tick() {
        reassembly.tick();
        producers.tick();
        if (++ticks % NAME_TICKS == 0 && !own.stillNamed()) {
            renew("is no longer under its name (removed or replaced by someone else)");
        }
    }

    /** With no inbox: waits a second, or until closed, and tries to make one. */
    private void awaitInbox() throws IOException {
        turnedAt = System.nanoTime();
        wake.sleep(TimeUnit.NANOSECONDS.toMillis(TICK_NANOS) * NAME_TICKS);
        wake.drain();
        if (!running) {
            return;
        }
        Segment fresh = own.retry();
        if (fresh != null) {
            attach(fresh);
            problems.warn("inbox back", "shm has an inbox again: " + fresh + "; links come back to shm as they "
                + "look for better methods", null);
        }
    }

    /**
     * The inbox can no longer be trusted: its connections are closed and a fresh inbox replaces
     * the old file; senders see the old one abandoned (or cut short) and connect again. If no
     * fresh one can be made, there is none until {@link #awaitInbox} makes one.
     *
     * @param what what is wrong with the inbox, completing "shm inbox X ..."
     */
    private void renew(String what) {
        errors.incrementAndGet();
        Path path = segment.path();
        Segment fresh = own.renew();
        attach(fresh);
        problems.warn("inbox replaced", "shm inbox " + path + " " + what + "; closing its connections and "
            + (fresh != null ? "replacing it" : "no fresh one can be made (" + own.unavailable() + "): links use "
                + "other methods, and shm tries again every second"), null);
        connections.failAll("inbox " + path + " " + what);
    }

    private static String cutShort(Segment segment) {
        return "was cut short to " + segment.fileSize() + " bytes while mapped (" + segment.length() + ")";
    }

    /**
     * A turn failed. Whatever it was, the poller goes on; a fault on a mapping (an {@link
     * InternalError}, thrown by the JVM at some point after the access that met a page cut off a
     * file) cannot say which mapping it was, so the files are asked: the own inbox, renewed if it
     * was cut short, and every peer's, whose connection fails if it was.
     */
    private void survive(Throwable failure) {
        errors.incrementAndGet();
        problems.warn("poller failure", Thread.currentThread().getName() + " goes on after " + failure, failure);
        if (segment != null && !segment.intact()) {
            renew(cutShort(segment));
        }
        connections.failCutShort();
        // Paces a failure that comes back every turn, such as a broken wake-up socket, to one a millisecond.
        LockSupport.parkNanos(VERIFY_NANOS);
    }

    /** Stops the thread, waiting up to 5 s for it to finish its turn. */
    @Override
    public void close() {
        running = false;
        wake.wakeup();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.log(Level.WARNING, thread.getName() + " did not stop within 5 s");
        }
    }
}
