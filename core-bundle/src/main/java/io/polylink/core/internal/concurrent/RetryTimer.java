package io.polylink.core.internal.concurrent;

import io.polylink.core.internal.observe.Problems;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The context's timer, thread {@code polylink-retry-<context>}: short tasks after a delay (quiet
 * acknowledgements, retries of flows that found no way to their peer, shrinking idle pools) and
 * background connects. The thread lives while tasks wait and ends a second after the last; once
 * the timer is closed, tasks are dropped, since what they would tidy goes with the context. What a
 * task throws is reported, never swallowed, and the thread goes on.
 */
public final class RetryTimer implements AutoCloseable {

    private final ScheduledThreadPoolExecutor thread;
    private final Problems problems;

    /**
     * @param name the thread's name
     * @param problems where what a task let through is reported
     */
    public RetryTimer(String name, Problems problems) {
        this.problems = problems;
        this.thread = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        this.thread.setKeepAliveTime(1, TimeUnit.SECONDS);
        this.thread.allowCoreThreadTimeOut(true);
        this.thread.setRemoveOnCancelPolicy(true);
    }

    /** Runs a short task after {@code delayMs}; nothing once the timer is closed. */
    public void later(Runnable task, long delayMs) {
        try {
            thread.schedule(Guarded.of(task, problems), delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // the context is closing: what the task would move or tidy goes with it
        }
    }

    /**
     * Runs a task now, in order with the others.
     *
     * @throws RejectedExecutionException once the timer is closed
     */
    public void execute(Runnable task) {
        thread.execute(Guarded.of(task, problems));
    }

    /** Drops waiting tasks, interrupts a running one and waits up to 5 s for it. */
    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
