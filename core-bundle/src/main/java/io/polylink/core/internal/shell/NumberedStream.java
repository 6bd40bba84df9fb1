package io.polylink.core.internal.shell;

import io.polylink.Context;
import io.polylink.Endpoint;
import io.polylink.Explanation;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.core.internal.endpoint.SystemEndpoint;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A numbered stream through a peer and back: one thread ({@code polylink-stream}) sends RSRs
 * numbered 0, 1, 2, … to the peer's system endpoint, whose echo sends each back to an endpoint of
 * this context, where {@link EchoTally} counts them. An RSR counts as sent only if its send
 * returned; loss, duplication or reordering in either direction shows in the tally. At most
 * {@value #WINDOW} RSRs are out at once, so the stream goes as fast as the round trips let it
 * and never floods the peer's echo; a paced stream sleeps {@value #PACE_MICROS} µs between sends,
 * leaving the cores to the nodes. The thread also watches the stack the link is on, and notes
 * each move.
 */
final class NumberedStream implements AutoCloseable {

    /** The longest stream: its tally is a bit per number, 12 MiB at most. */
    static final long MAX_LENGTH = 100_000_000;
    private static final int WINDOW = 1024;
    private static final long PACE_MICROS = 20;
    /** How long the stream waits for an echo before it gives up. */
    private static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final long WATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final int REPLY = 0;
    private static final int ERRORS_KEPT = 5;

    private final Context context;
    private final Startpoint target;
    private final String name;
    private final long length;
    private final boolean paced;
    private final long id = ThreadLocalRandom.current().nextLong();
    private final EchoTally tally = new EchoTally(id);
    private final Endpoint back;
    private final Thread thread;
    private final long start = System.nanoTime();
    /** Guarded by this. */
    private final BitSet failed = new BitSet();
    private final Set<String> errors = new LinkedHashSet<>();
    private final List<String> moves = new ArrayList<>();
    private long attempts;
    private String stack;
    private String ended;
    private volatile boolean stopping;

    /**
     * Starts the stream.
     *
     * @param name how the target was named, for the report
     * @param length RSRs to send, 1 to {@link #MAX_LENGTH}
     * @param paced whether to pause between sends, for a stream that runs in the background
     */
    NumberedStream(Context context, Startpoint target, String name, long length, boolean paced) {
        this.context = context;
        this.target = target;
        this.name = name;
        this.length = length;
        this.paced = paced;
        this.back = context.createEndpoint().register(REPLY, (e, m) -> tally.arrived(m.getLong(), m.getLong()));
        this.stack = chosenStack();
        this.thread = new Thread(this::run, "polylink-stream");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        MessageBuffer message = context.allocateBuffer(128);
        Startpoint replyTo = back.startpoint();
        long nextWatch = System.nanoTime() + WATCH_NANOS;
        try {
            for (long n = 0; n < length && !stopping; n++) {
                if (!roomFor(n)) {
                    end("no echo came back for " + TimeUnit.NANOSECONDS.toSeconds(QUIET_NANOS) + " s");
                    return;
                }
                try {
                    target.send(SystemEndpoint.ECHO, message.clear().putStartpoint(replyTo).putInt(REPLY).putLong(id)
                        .putLong(n));
                } catch (RuntimeException e) {
                    failed(n, e);
                    nextWatch = System.nanoTime(); // a failed send often means the link is moving: look now
                }
                synchronized (this) {
                    attempts = n + 1;
                }
                if (System.nanoTime() - nextWatch >= 0) {
                    watch(n);
                    nextWatch = System.nanoTime() + WATCH_NANOS;
                }
                if (paced) {
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(PACE_MICROS));
                }
            }
            end(stopping ? "stopped" : "all sent");
        } catch (InterruptedException e) {
            end("interrupted");
        } catch (RuntimeException | Error e) {
            end("the stream thread failed: " + e);
        }
    }

    /** Waits, bounded, until fewer than {@link #WINDOW} RSRs before {@code n} are out. */
    private boolean roomFor(long n) throws InterruptedException {
        long failures;
        synchronized (this) {
            failures = failed.cardinality();
        }
        return n - failures - tally.back() < WINDOW || tally.await(n - failures - WINDOW + 1, QUIET_NANOS);
    }

    private synchronized void failed(long n, RuntimeException e) {
        failed.set((int) n);
        if (errors.size() < ERRORS_KEPT) {
            errors.add(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private synchronized void end(String why) {
        ended = why;
        notifyAll();
    }

    private void watch(long n) {
        String now = chosenStack();
        synchronized (this) {
            if (!now.equals(stack)) {
                moves.add(String.format(Locale.ROOT, "link moved %s -> %s at RSR #%d (%.1f s into the stream)", stack,
                    now, n, (System.nanoTime() - start) / 1e9));
                stack = now;
            }
        }
    }

    private String chosenStack() {
        try {
            Explanation explanation = target.explain().get(0);
            return explanation.chosen().map(e -> e.descriptor().stack()).orElse("none");
        } catch (RuntimeException e) {
            return "none (" + e.getMessage() + ")";
        }
    }

    /** Waits until the stream has sent all it was to send, or gave up. */
    void awaitSent() throws InterruptedException {
        thread.join();
    }

    /** @return where the stream stands: sent so far, back so far, the stack, each move */
    synchronized String progress() {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "stream to %s over %s: %d RSRs tried, "
            + "%d sends failed, %d back, %.1f s%s", name, stack, attempts, failed.cardinality(), tally.back(),
            (System.nanoTime() - start) / 1e9, ended == null ? "" : "; " + ended));
        moves.forEach(m -> out.append('\n').append(m));
        errors.forEach(e -> out.append("\nsend failed: ").append(e));
        return out.toString();
    }

    /**
     * Stops sending (if the stream still runs), waits for the echoes of what was sent, bounded, and
     * says how the stream went.
     *
     * @return the progress, then {@code stream result: sent=… delivered=… lost=… duplicated=…
     *     reordered=… failed-sends=…}
     */
    String finish() throws InterruptedException {
        stopping = true;
        thread.join(TimeUnit.NANOSECONDS.toMillis(QUIET_NANOS) + 1000);
        long tried;
        BitSet failedSends;
        synchronized (this) {
            tried = attempts;
            failedSends = (BitSet) failed.clone();
        }
        tally.await(tried - failedSends.cardinality(), QUIET_NANOS);
        String result = progress() + "\nstream result: " + tally.result(tried, failedSends);
        close();
        return result;
    }

    /** Stops the thread, bounded, and closes the endpoint the echoes come back to. */
    @Override
    public void close() throws InterruptedException {
        stopping = true;
        thread.join(TimeUnit.NANOSECONDS.toMillis(QUIET_NANOS) + 1000);
        back.close();
    }
}
