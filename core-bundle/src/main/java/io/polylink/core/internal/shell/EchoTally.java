package io.polylink.core.internal.shell;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What came back of a numbered stream: which numbers, how often, in what order. Echoes can
 * arrive on two receiving threads at once while a link moves between methods, so every update
 * holds the lock; {@link #await} waits on it.
 */
final class EchoTally {

    /** Details kept of what went wrong: the first few of each. */
    private static final int DETAILS = 5;

    private final long stream;
    private final BitSet seen = new BitSet();
    private long arrivals;
    private long duplicates;
    private long reordered;
    private long foreign;
    private long highest = -1;
    private final List<String> outOfOrder = new ArrayList<>();

    /** @param stream the id of the stream whose echoes count; others are counted apart */
    EchoTally(long stream) {
        this.stream = stream;
    }

    synchronized void arrived(long streamId, long number) {
        if (streamId != stream || number < 0 || number > NumberedStream.MAX_LENGTH) {
            foreign++;
            return;
        }
        arrivals++;
        int n = (int) number;
        if (seen.get(n)) {
            duplicates++;
            return;
        }
        seen.set(n);
        if (number < highest) {
            reordered++;
            if (outOfOrder.size() < DETAILS) {
                outOfOrder.add("#" + number + " came back after #" + highest);
            }
        } else {
            highest = number;
        }
        notifyAll();
    }

    /** @return distinct numbers back so far */
    synchronized long back() {
        return seen.cardinality();
    }

    /**
     * Waits until {@code target} distinct numbers are back, or none came for {@code quietNanos}.
     *
     * @return whether they are back
     */
    synchronized boolean await(long target, long quietNanos) throws InterruptedException {
        long last = seen.cardinality();
        long deadline = System.nanoTime() + quietNanos;
        while (seen.cardinality() < target) {
            long left = deadline - System.nanoTime();
            if (seen.cardinality() > last) {
                last = seen.cardinality();
                deadline = System.nanoTime() + quietNanos;
            } else if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, Math.max(left, 1));
        }
        return true;
    }

    /**
     * @param attempts the numbers the sender tried, 0 up to this
     * @param failed those whose send threw: not sent, so never lost
     * @return {@code sent=… delivered=… lost=… duplicated=… reordered=… failed-sends=…}, then the
     *     first lost and reordered numbers, a line each
     */
    synchronized String result(long attempts, BitSet failed) {
        BitSet sent = new BitSet();
        sent.set(0, (int) attempts);
        sent.andNot(failed);
        BitSet delivered = (BitSet) seen.clone();
        delivered.and(sent);
        BitSet missing = (BitSet) sent.clone();
        missing.andNot(seen);
        StringBuilder out = new StringBuilder(String.format("sent=%d delivered=%d lost=%d duplicated=%d reordered=%d "
            + "failed-sends=%d", sent.cardinality(), delivered.cardinality(), missing.cardinality(), duplicates,
            reordered, failed.cardinality()));
        BitSet despiteFailure = (BitSet) seen.clone();
        despiteFailure.and(failed);
        if (!despiteFailure.isEmpty()) {
            out.append(" came-back-despite-failed-send=").append(despiteFailure.cardinality());
        }
        if (foreign > 0) {
            out.append(" foreign=").append(foreign);
        }
        missing.stream().limit(DETAILS).forEach(n -> out.append("\nlost: #").append(n));
        outOfOrder.forEach(o -> out.append("\nreordered: ").append(o));
        return out.toString();
    }
}
