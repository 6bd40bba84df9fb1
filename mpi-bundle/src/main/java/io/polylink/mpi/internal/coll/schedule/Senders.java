package io.polylink.mpi.internal.coll.schedule;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The thread that sends a rank's collective messages of more than {@value #INLINE_LIMIT} bytes when
 * an arrival makes them due. The arrival's thread is a method's receiving thread, and a send that
 * finds its connection full waits there for the peer to read: if the peer's receiving thread is
 * waiting likewise to send to this rank (a ring, an alltoall), neither reads and both stall until
 * their links are declared dead. Sent from here instead, a message may wait while the receiving
 * threads go on reading. One thread per rank, in order of arrival, started on demand and ended
 * after a second without work or when the rank finalizes.
 */
public final class Senders implements Executor, AutoCloseable {

    /** Messages up to this size go from the arrival's thread: a wait for room there would need queues megabytes full. */
    static final long INLINE_LIMIT = 4 * 1024;

    private volatile Thread thread;
    private final ThreadPoolExecutor pool = new ThreadPoolExecutor(0, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
        r -> {
            Thread t = new Thread(r, "polylink-mpi-collective-sends");
            t.setDaemon(true);
            thread = t;
            return t;
        });

    @Override
    public void execute(Runnable send) {
        pool.execute(send);
    }

    /** @return whether the calling thread is this one, which may wait for a send */
    boolean current() {
        return Thread.currentThread() == thread;
    }

    /** Ends the thread once what is queued was sent. */
    @Override
    public void close() {
        pool.shutdown();
    }
}
