package io.polylink.demo.internal;

import io.polylink.Context;
import io.polylink.Explanation;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The sending end of a numbered stream: one thread sends STREAM RSRs numbered 0, 1, 2, … over one
 * link, counts an RSR as sent only when send() returned, and watches which stack the link's
 * selection gives, so the demo can show the moment the link moves.
 */
final class NumberedStream implements AutoCloseable {

    /** Pause between sends: a steady stream that leaves the two cores to the nodes' own threads. */
    private static final long PACE_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    /** How often the thread asks selection which stack the link has. */
    private static final long WATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final int MAX_ERRORS_KEPT = 5;

    private final Context context;
    private final Startpoint link;
    private final long id;
    private final Thread thread;
    private final BitSet failed = new BitSet();
    private final Set<String> errors = new LinkedHashSet<>();
    private final List<String> moves = new ArrayList<>();
    private final long startNanos = System.nanoTime();
    private volatile boolean stopping;
    private long attempts;
    private long failures;
    /** The count of sent RSRs an {@link #awaitSent} caller waits for. */
    private long wakeAt = Long.MAX_VALUE;
    private String stack;

    NumberedStream(Context context, Startpoint link, long id) {
        this.context = context;
        this.link = link;
        this.id = id;
        this.stack = chosenStack();
        this.thread = new Thread(this::run, "polylink-demo-stream");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        MessageBuffer message = context.allocateBuffer(16);
        long nextWatch = System.nanoTime() + WATCH_NANOS;
        while (!stopping) {
            long sequence;
            synchronized (this) {
                sequence = attempts++;
            }
            try {
                link.send(DemoProtocol.STREAM, message.clear().putLong(id).putLong(sequence));
                synchronized (this) {
                    if (sent() >= wakeAt) {
                        notifyAll();
                    }
                }
            } catch (RuntimeException e) {
                synchronized (this) {
                    failed.set((int) sequence);
                    failures++;
                    if (errors.size() < MAX_ERRORS_KEPT) {
                        errors.add(e.getClass().getSimpleName() + ": " + e.getMessage());
                    }
                }
                nextWatch = System.nanoTime(); // a failed send often means the link is moving: look now
            }
            if (System.nanoTime() - nextWatch >= 0) {
                watch(sequence);
                nextWatch = System.nanoTime() + WATCH_NANOS;
            }
            LockSupport.parkNanos(PACE_NANOS);
        }
    }

    private void watch(long sequence) {
        String now = chosenStack();
        synchronized (this) {
            if (!now.equals(stack)) {
                moves.add(String.format(Locale.ROOT, "link moved %s -> %s at RSR #%d (%.1f s into the stream)", stack, now,
                    sequence, (System.nanoTime() - startNanos) / 1e9));
                stack = now;
                notifyAll();
            }
        }
    }

    private String chosenStack() {
        try {
            Explanation explanation = link.explain().get(0);
            return explanation.chosen().map(e -> e.descriptor().stack()).orElse("none");
        } catch (RuntimeException e) {
            return "none (" + e.getMessage() + ")";
        }
    }

    /**
     * Waits until the link's selection gives {@code expected}.
     *
     * @return the last move, or why the wait ended without it, with the stream's counts
     */
    synchronized String awaitStack(String expected, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!expected.equals(stack)) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !thread.isAlive()) {
                return "stack " + expected + " not reached within " + timeoutMillis + " ms; the link has " + stack
                    + "\n" + progress();
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return moves.isEmpty() ? "link has " + stack : moves.get(moves.size() - 1);
    }

    /** RSRs whose send() returned; under the lock. */
    private long sent() {
        return attempts - failures;
    }

    /**
     * Waits until {@code more} further RSRs were sent: lets traffic flow for a while, measured in
     * RSRs rather than in time.
     *
     * @return how many went over which stack, or why the wait ended early
     */
    synchronized String awaitSent(long more, long timeoutMillis) throws InterruptedException {
        long from = sent();
        wakeAt = from + more;
        try {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            while (sent() < wakeAt) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !thread.isAlive()) {
                    return "only " + (sent() - from) + " of " + more + " RSRs sent within "
                        + timeoutMillis + " ms over " + stack + "\n" + progress();
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return String.format(Locale.ROOT, "%d RSRs sent over %s (stream total %d sent, %d sends failed)", more, stack,
                sent(), failures);
        } finally {
            wakeAt = Long.MAX_VALUE;
        }
    }

    private String progress() {
        StringBuilder out = new StringBuilder();
        moves.forEach(m -> out.append(m).append('\n'));
        out.append(String.format(Locale.ROOT, "stream: %d RSRs sent (send() returned), %d sends threw", sent(),
            failures));
        errors.forEach(e -> out.append("\n  send failed: ").append(e));
        return out.toString();
    }

    /**
     * Stops the thread (bounded wait) and tells the receiver, over the same link, which numbers
     * were tried and which sends threw.
     *
     * @return every move of the link and the sender's counts, or why the END could not be sent
     */
    String finish() throws InterruptedException {
        close();
        if (thread.isAlive()) {
            return "the stream thread did not stop within 5 s";
        }
        long tried;
        BitSet failedCopy;
        synchronized (this) {
            tried = attempts;
            failedCopy = (BitSet) failed.clone();
        }
        MessageBuffer end = context.allocateBuffer(32 + 8 * failedCopy.cardinality())
            .putLong(id).putLong(tried).putInt(failedCopy.cardinality());
        failedCopy.stream().forEach(n -> end.putLong(n));
        String summary;
        synchronized (this) {
            summary = progress();
        }
        try {
            link.send(DemoProtocol.END, end);
        } catch (RuntimeException e) {
            return summary + "\nEND could not be sent: " + e;
        }
        return summary;
    }

    @Override
    public void close() throws InterruptedException {
        stopping = true;
        thread.join(TimeUnit.SECONDS.toMillis(5));
    }
}
