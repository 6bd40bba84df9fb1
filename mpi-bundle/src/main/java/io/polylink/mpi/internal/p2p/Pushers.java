package io.polylink.mpi.internal.p2p;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads that push a rendezvous's data when no thread waits for the send without parking: an
 * {@code iSend} whose application computes, a collective's send, one of several sends a
 * {@code waitAll} waits for. Pushing may wait for room at the receiver, which the thread that
 * received the CTS, a method's I/O thread, must never do. Two threads, so one slow receiver does
 * not hold up every other; they start when needed and end after a while without work.
 */
final class Pushers implements AutoCloseable {

    private static final int THREADS = 2;
    private static final long IDLE_SECONDS = 10;

    private final ThreadPoolExecutor threads;

    Pushers(int worldRank) {
        AtomicInteger made = new AtomicInteger();
        threads = new ThreadPoolExecutor(THREADS, THREADS, IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
            r -> {
                Thread t = new Thread(r, "polylink-mpi-push-" + worldRank + "-" + made.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        threads.allowCoreThreadTimeOut(true);
    }

    /** Pushes {@code s}'s data on one of these threads, unless someone claims it first. */
    void push(SendOperation s) {
        try {
            threads.execute(s::assist);
        } catch (RejectedExecutionException closed) {
            // The rank is ending: what is in flight fails with it.
        }
    }

    /** Stops the threads; a push under way ends as its link closes. */
    @Override
    public void close() {
        threads.shutdownNow();
    }
}
