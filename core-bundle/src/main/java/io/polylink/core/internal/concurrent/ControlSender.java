package io.polylink.core.internal.concurrent;

import io.polylink.core.internal.observe.Problems;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Sends the control frames that receiving threads queue (acknowledgements, handshake answers) on
 * a thread of its own. A receiving thread must never block in a send: over a bounded medium, two
 * receivers each writing into the other's full inbox would wait for each other until the send
 * timed out. The thread starts on first use and ends a second after its last task; nothing a task
 * throws ends it.
 */
public final class ControlSender implements AutoCloseable {

    private final ThreadPoolExecutor thread;
    private final Problems problems;

    /** @param problems where what a task let through is reported */
    public ControlSender(String name, Problems problems) {
        this.problems = problems;
        this.thread = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        this.thread.allowCoreThreadTimeOut(true);
    }

    /** Runs a flush soon; does nothing once closed, when there is nobody left to tell. */
    public void schedule(Runnable flush) {
        try {
            thread.execute(Guarded.of(flush, problems));
        } catch (RejectedExecutionException closed) {
            // the context is closing; its connections go with it
        }
    }

    /**
     * Stops the thread, letting a flush in progress finish its send (bounded by the method's
     * timeout); at once if this thread is interrupted.
     */
    @Override
    public void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(10, TimeUnit.SECONDS)) {
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            thread.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
