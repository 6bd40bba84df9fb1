package io.polylink.method.tcp.internal.liveness;

import io.polylink.method.tcp.internal.connection.TcpConnection;
import io.polylink.spi.ProblemLog;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The method's heartbeats, on a thread of their own ({@code polylink-tcp-timer}), so they go out
 * even while the I/O thread runs a long handler. It wakes when the next heartbeat is due, not on a
 * fixed period: an idle context should not wake its threads more often than its peers need.
 *
 * <p>Heartbeats say the context reads what its peers send, so they go out only while the I/O
 * thread runs: if it stopped, peers hear silence and move their links, as from a dead peer. What
 * one connection throws closes that connection; the timer goes on with the others.
 */
public final class Heartbeats implements AutoCloseable {

    /** How often the timer looks when no connection needs it sooner; a new one wakes it. */
    private static final long IDLE_CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Supplier<List<TcpConnection>> connections;
    private final BooleanSupplier reading;
    private final ProblemLog problems;
    private final ScheduledExecutorService timer;
    /** The run whose successor is scheduled; a new connection starts another, ending this one. */
    private final AtomicInteger runs = new AtomicInteger();

    /**
     * @param connections the connections to keep alive, as of now
     * @param reading whether the I/O thread that reads them runs
     * @param problems where a connection's failure here is logged
     */
    public Heartbeats(Supplier<List<TcpConnection>> connections, BooleanSupplier reading, ProblemLog problems) {
        this.connections = connections;
        this.reading = reading;
        this.problems = problems;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "polylink-tcp-timer");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts a run now, for a new connection whose first heartbeat may be due before the current
     * run's next turn; that run then ends.
     */
    public void now() {
        schedule(runs.incrementAndGet(), 0);
    }

    private void beat(int run) {
        long next = IDLE_CHECK_NANOS;
        try {
            if (reading.getAsBoolean()) {
                next = beatEach(System.nanoTime());
            }
        } catch (Throwable e) {
            problems.warn("failed heartbeats", "polylink-tcp-timer survived an unexpected failure and goes on: " + e, e);
        } finally {
            if (runs.get() == run) {
                schedule(run, next);
            }
        }
    }

    /** @return nanoseconds until the next heartbeat is due */
    private long beatEach(long now) {
        long next = IDLE_CHECK_NANOS;
        for (TcpConnection c : connections.get()) {
            try {
                next = Math.min(next, c.heartbeat(now));
            } catch (Throwable e) {
                problems.warn("failed heartbeat", "polylink-tcp-timer closed " + c + " after an unexpected " + e
                    + "; it goes on with the others", e);
                c.fail(e);
            }
        }
        return next;
    }

    private void schedule(int run, long delayNanos) {
        try {
            timer.schedule(() -> beat(run), delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException stopping) {
            // close() shut the timer down: no more heartbeats
        }
    }

    /** Stops the thread, waiting a few seconds for a run under way. */
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
