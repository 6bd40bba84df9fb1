package io.polylink.mpi.internal.p2p;

import io.polylink.mpi.internal.MpiError;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntPredicate;

/**
 * Notices ranks whose process ended while this rank waits for them. A message from a dead rank
 * never comes, and nothing else says so: the receiving side of a link learns nothing when its
 * sender dies. Sending does: a link to a dead process fails (tcp at once, shm once the process is
 * gone from the process table), and {@link Transport} then loses the rank, which fails everything
 * that waits on it. So while anything here waits, this sends a PING, which the receiver ignores,
 * to every rank that is neither lost nor known to be done, once a period.
 *
 * <p>Runs the thread {@code polylink-mpi-liveness} from {@link #start()} to {@link #close()}, or
 * until the rank's context closes.
 */
public final class Liveness implements AutoCloseable {

    private final Transport transport;
    private final long periodNanos;
    private final BooleanSupplier waiting;
    private final IntPredicate done;
    private final Thread thread;
    private volatile boolean closed;

    /**
     * @param period how often to look
     * @param waiting whether this rank waits for another now
     * @param done whether a rank of the job has nothing more to send here (it finalized), so
     *     that its leaving is no loss
     */
    public Liveness(Transport transport, Duration period, BooleanSupplier waiting, IntPredicate done) {
        this.transport = transport;
        this.periodNanos = period.toNanos();
        this.waiting = waiting;
        this.done = done;
        this.thread = new Thread(this::run, "polylink-mpi-liveness");
        thread.setDaemon(true);
    }

    /** Starts probing. @return this */
    public Liveness start() {
        thread.start();
        return this;
    }

    private void run() {
        while (!closed) {
            synchronized (this) {
                long deadline = System.nanoTime() + periodNanos;
                for (long left = periodNanos; left > 0 && !closed; left = deadline - System.nanoTime()) {
                    try {
                        TimeUnit.NANOSECONDS.timedWait(this, left);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
            if (transport.closing()) {
                return; // the rank ended without Finalize, and its context closed under it
            }
            if (!closed && waiting.getAsBoolean()) {
                probe();
            }
        }
    }

    private void probe() {
        for (int r = 0; r < transport.worldSize() && !closed; r++) {
            if (r != transport.worldRank() && transport.lost(r) == null && !done.test(r)) {
                try {
                    transport.ping(r);
                } catch (MpiError lost) {
                    // Transport lost the rank and failed what waited on it.
                }
            }
        }
    }

    /** Stops probing; the thread ends soon after. Any thread may call it, an I/O thread too. */
    public void stop() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
    }

    /** Stops probing and waits for the thread to end. */
    @Override
    public void close() {
        stop();
        if (Thread.currentThread() != thread) {
            try {
                thread.join(TimeUnit.NANOSECONDS.toMillis(periodNanos) + 10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
