package io.polylink.method.shm.internal.liveness;

import io.polylink.method.shm.internal.segment.OwnInbox;
import io.polylink.spi.ProblemLog;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The heartbeat timer, thread {@code polylink-shm-timer}: every interval it counts a beat in this
 * context's inbox, by which the contexts sending to it judge it, then has this context judge the
 * receivers it sends to (each connection's {@link ReceiverWatch}). A beat says the poller runs: it
 * is counted only while the poller has turned within {@link #POLLER_STALL_NANOS}, so a poller
 * held up looks to senders as silent as a stopped process, and one that ended as dead.
 *
 * <p>Nothing a beat meets ends the timer (a scheduled task that throws is never run again): it is
 * counted, logged, and the next beat comes.
 */
public final class Heartbeat implements AutoCloseable {

    /** Longer than the poller sleeps when idle (its 100 ms tick), with room for a busy host. */
    static final long POLLER_STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final OwnInbox own;
    private final LongSupplier pollerTurnedAt;
    private final LongConsumer judgeReceivers;
    private final ProblemLog problems;
    private final AtomicLong errors;
    private final ScheduledExecutorService timer;

    /**
     * Starts the timer; the first beat is at once.
     *
     * @param pollerTurnedAt {@link System#nanoTime()} when the poller last turned
     * @param judgeReceivers runs after each beat, with {@link System#nanoTime()}
     * @param errors the method's error count
     */
    public Heartbeat(int intervalMs, OwnInbox own, LongSupplier pollerTurnedAt, LongConsumer judgeReceivers,
                     ProblemLog problems, AtomicLong errors) {
        this.own = own;
        this.pollerTurnedAt = pollerTurnedAt;
        this.judgeReceivers = judgeReceivers;
        this.problems = problems;
        this.errors = errors;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "polylink-shm-timer");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::beat, 0, intervalMs, TimeUnit.MILLISECONDS);
    }

    private void beat() {
        try {
            long now = System.nanoTime();
            if (now - pollerTurnedAt.getAsLong() <= POLLER_STALL_NANOS) {
                own.beat(System.currentTimeMillis());
            }
            judgeReceivers.accept(now);
        } catch (Throwable t) {
            errors.incrementAndGet();
            problems.warn("heartbeat failed", "shm heartbeat failed, the next one comes as usual: " + t, t);
        }
    }

    /**
     * Stops the timer, waiting up to 5 s for a beat under way; not interrupting it, since an
     * interrupt would close the file a beat looks at.
     */
    @Override
    public void close() {
        timer.shutdown();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
