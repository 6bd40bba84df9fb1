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
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

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
 */
public final class InboxPoller implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("io.polylink.method.shm");
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final int BATCH = 256;
    /**
     * The poller reads the clock once in this many turns (a power of two), since a read costs as
     * much as an empty poll; see docs/performance-notes.md#shm-clock-reads.
     */
    private static final int CLOCK_LOOPS = 64;

    private final OwnInbox own;
    private final WakeSocket wake;
    private final Backoff backoff;
    private final Connections connections;
    private final Reassembly reassembly;
    private final SendCounter sends;
    private final int unblockTimeoutMs;
    private final ProblemLog problems;
    private final AtomicLong errors;
    private final Thread thread;
    private volatile boolean running = true;
    /** The inbox, its ring and what is known of its producers: replaced together with a corrupt inbox. */
    private Segment segment;
    private Inbox inbox;
    private ProducerSlots producers;

    /**
     * Starts the poller's thread.
     *
     * @param wake the socket whose port {@code own}'s header names
     * @param reassembly the connections' buffers for split frames, let go on the tick while unused
     * @param sends the frames this context sends, which tell the backoff a conversation from a stream
     * @param errors the method's error count
     */
    public InboxPoller(OwnInbox own, WakeSocket wake, Backoff backoff, Connections connections, Reassembly reassembly,
                       SendCounter sends, int unblockTimeoutMs, ProblemLog problems, AtomicLong errors) {
        this.own = own;
        this.wake = wake;
        this.backoff = backoff;
        this.connections = connections;
        this.reassembly = reassembly;
        this.sends = sends;
        this.unblockTimeoutMs = unblockTimeoutMs;
        this.problems = problems;
        this.errors = errors;
        attach(own.segment());
        this.thread = new Thread(this::run, "polylink-shm-io");
        thread.setDaemon(true);
        thread.start();
    }

    /** Reads {@code fresh} from now on: its ring from its head, with nothing known yet of its producers. */
    private void attach(Segment fresh) {
        segment = fresh;
        inbox = new Inbox(fresh, unblockTimeoutMs);
        producers = new ProducerSlots(fresh, inbox, connections, unblockTimeoutMs, problems, errors);
    }

    private void run() {
        long lastWork = System.nanoTime();
        long nextTick = lastWork + TICK_NANOS;
        boolean worked = false;
        int sendsSeen = 0;
        int loops = 0;
        boolean yielding = false;
        while (running) {
            try {
                int records = doWork();
                if (records > 0) {
                    worked = true;
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
                if (records > 0) {
                    continue;
                }
                inbox.checkStall(producers, now, tick);
                if (now - lastWork >= backoff.spinNanos()) {
                    park(nextTick - now);
                }
            } catch (IOException | RuntimeException e) {
                errors.incrementAndGet();
                LOG.log(Level.ERROR, Thread.currentThread().getName() + " survived an unexpected failure", e);
            }
        }
    }

    /**
     * Hands up to {@link #BATCH} committed records to their connections.
     *
     * @return how many records (padding included) were consumed
     * @throws IOException if the inbox was corrupt and no fresh one could be made
     */
    private int doWork() throws IOException {
        try {
            return inbox.poll(producers, BATCH);
        } catch (Inbox.CorruptInboxException e) {
            replaceCorrupt(e.getMessage());
            return 0;
        }
    }

    /**
     * Sleeps until a producer pokes or the next tick. The flag is raised before the last look at the
     * ring, and producers look at the flag after committing: one of the two always sees the other.
     */
    private void park(long untilTickNanos) throws IOException {
        segment.parked(true);
        if (inbox.ready()) {
            segment.parked(false);
            return;
        }
        // A claimed record not yet committed: its producer pokes when done, but it may have died.
        long millis = inbox.pending() ? 1 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(untilTickNanos));
        wake.sleep(millis);
        segment.parked(false);
        wake.drain();
    }

    /** Every {@link #TICK_NANOS}: buffers unused for long, producers that died, slots to free. */
    private void tick() {
        reassembly.tick();
        producers.tick();
    }

    /**
     * The ring holds an impossible record: nothing after it can be trusted. Every connection is
     * closed and a fresh inbox replaces the old file; senders see the old one marked corrupt and
     * connect again.
     */
    private void replaceCorrupt(String what) throws IOException {
        errors.incrementAndGet();
        Path path = segment.path();
        LOG.log(Level.ERROR, "shm inbox " + path + " is corrupt: " + what + "; closing its connections "
            + "and replacing it");
        attach(own.replace());
        connections.failAll("inbox " + path + " is corrupt: " + what);
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
