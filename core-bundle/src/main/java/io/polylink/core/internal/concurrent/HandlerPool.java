package io.polylink.core.internal.concurrent;

import io.polylink.core.internal.observe.Problems;
import java.lang.System.Logger.Level;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The context's executor, threads {@code polylink-handler-<n>}: {@link io.polylink.Delivery#EXECUTOR}
 * handlers, and the moves of flows whose connection went, which must not run on a method's
 * thread. Threads end 30 s after their last task; nothing a task throws ends one.
 */
public final class HandlerPool implements Executor, AutoCloseable {

    private static final System.Logger LOG = System.getLogger("io.polylink.core");

    private final ThreadPoolExecutor threads;
    private final String owner;
    private final Problems problems;

    /**
     * @param size threads at most
     * @param owner whose pool it is, for the log
     * @param problems where what a task let through is reported
     */
    public HandlerPool(int size, String owner, Problems problems) {
        AtomicInteger count = new AtomicInteger();
        this.owner = owner;
        this.problems = problems;
        this.threads = new ThreadPoolExecutor(size, size, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "polylink-handler-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.threads.allowCoreThreadTimeOut(true);
    }

    /** @throws java.util.concurrent.RejectedExecutionException once the pool is shutting down */
    @Override
    public void execute(Runnable task) {
        threads.execute(Guarded.of(task, problems));
    }

    /**
     * Runs tasks on up to {@code size} threads from now on: more start as tasks come, and threads
     * beyond the new size end once they finish their task.
     */
    public synchronized void resize(int size) {
        if (size > threads.getMaximumPoolSize()) {
            threads.setMaximumPoolSize(size);
            threads.setCorePoolSize(size);
        } else {
            threads.setCorePoolSize(size);
            threads.setMaximumPoolSize(size);
        }
    }

    /** Takes no more tasks; those queued still run. */
    public void shutdown() {
        threads.shutdown();
    }

    /** Waits up to 5 s for the tasks left, then interrupts them; at once if this thread is interrupted. */
    @Override
    public void close() {
        threads.shutdown();
        try {
            if (!threads.awaitTermination(5, TimeUnit.SECONDS)) {
                threads.shutdownNow();
                LOG.log(Level.WARNING, "handlers of " + owner + " did not finish within 5 s; interrupted");
            }
        } catch (InterruptedException e) {
            threads.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
