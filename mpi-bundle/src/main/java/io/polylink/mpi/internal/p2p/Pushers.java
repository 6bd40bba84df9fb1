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
 *
 * <p>A collective's sends to ranks at other sites go to up to eight threads of their own as well
 * ({@link #pushFar}), whichever thread claims each first pushing it: the thread waiting for the
 * collective would push them one after another, and over links across sites, which take a second
 * per MiB, each receiver would wait for the ones before it (docs/performance-notes.md#magpie-testbed).
 * On one host a push is a copy the sender's core makes either way, and more threads would only
 * take turns on the cores.
 */
final class Pushers implements AutoCloseable {

    private static final int THREADS = 2;
    private static final int FAR_THREADS = 8;
    private static final long IDLE_SECONDS = 10;

    private final ThreadPoolExecutor threads;
    private final ThreadPoolExecutor far;

    Pushers(int worldRank) {
        threads = pool("polylink-mpi-push-" + worldRank + "-", THREADS);
        far = pool("polylink-mpi-push-far-" + worldRank + "-", FAR_THREADS);
    }

    private static ThreadPoolExecutor pool(String name, int size) {
        AtomicInteger made = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(size, size, IDLE_SECONDS, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, name + made.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** Pushes {@code s}'s data on one of these threads, unless someone claims it first. */
    void push(SendOperation s) {
        execute(threads, s);
    }

    /** Pushes {@code s}'s data, to a rank at another site, beside the others such, unless someone claims it first. */
    void pushFar(SendOperation s) {
        execute(far, s);
    }

    private static void execute(ThreadPoolExecutor pool, SendOperation s) {
        try {
            pool.execute(s::assist);
        } catch (RejectedExecutionException closed) {
            // The rank is ending: what is in flight fails with it.
        }
    }

    /** Stops the threads; a push under way ends as its link closes. */
    @Override
    public void close() {
        threads.shutdownNow();
        far.shutdownNow();
    }
}
