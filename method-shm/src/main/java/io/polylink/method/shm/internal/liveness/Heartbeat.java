package io.polylink.method.shm.internal.liveness;

import io.polylink.method.shm.internal.segment.OwnInbox;
import java.lang.System.Logger.Level;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * The heartbeat timer, thread {@code polylink-shm-timer}: every interval it counts a beat in this
 * context's inbox, by which the contexts sending to it judge it, then has this context judge the
 * receivers it sends to (each connection's {@link ReceiverWatch}).
 */
public final class Heartbeat implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("io.polylink.method.shm");

    private final OwnInbox own;
    private final LongConsumer judgeReceivers;
    private final ScheduledExecutorService timer;

    /**
     * Starts the timer; the first beat is at once.
     *
     * @param judgeReceivers runs after each beat, with {@link System#nanoTime()}
     */
    public Heartbeat(int intervalMs, OwnInbox own, LongConsumer judgeReceivers) {
        this.own = own;
        this.judgeReceivers = judgeReceivers;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "polylink-shm-timer");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::beat, 0, intervalMs, TimeUnit.MILLISECONDS);
    }

    private void beat() {
        try {
            own.segment().beat(System.currentTimeMillis());
            judgeReceivers.accept(System.nanoTime());
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "shm heartbeat failed", e);
        }
    }

    /** Stops the timer, waiting up to 5 s for a beat under way. */
    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
