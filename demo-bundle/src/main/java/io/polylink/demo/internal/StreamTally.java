package io.polylink.demo.internal;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The receiving end of a numbered stream: which numbers arrived, how often and in what order.
 * RSRs can arrive on two I/O threads at once while a link moves between methods, so every
 * update holds the lock.
 */
final class StreamTally {

    private final BitSet seen = new BitSet();
    private long stream = -1;
    private long arrivals;
    private long duplicates;
    private long reordered;
    private long highest = -1;
    private StreamEnd end;
    /** The first few arrivals out of order, for whoever has to find out why. */
    private final List<String> outOfOrder = new ArrayList<>();
    private static final int DETAILS = 5;

    /** What the sender said after its last RSR. */
    record StreamEnd(long attempts, BitSet failed) {}

    synchronized void arrived(long streamId, long sequence) {
        if (streamId != stream) {
            restart(streamId);
        }
        arrivals++;
        int n = (int) sequence;
        if (seen.get(n)) {
            duplicates++;
            return;
        }
        seen.set(n);
        if (sequence < highest) {
            reordered++; // arrived after a higher number: out of order
            if (outOfOrder.size() < DETAILS) {
                outOfOrder.add("#" + sequence + " arrived after #" + highest);
            }
        } else {
            highest = sequence;
        }
    }

    synchronized void ended(long streamId, StreamEnd streamEnd) {
        if (streamId != stream) {
            restart(streamId); // a stream of which nothing arrived
        }
        end = streamEnd;
        notifyAll();
    }

    private void restart(long streamId) {
        stream = streamId;
        seen.clear();
        arrivals = 0;
        duplicates = 0;
        reordered = 0;
        highest = -1;
        end = null;
        outOfOrder.clear();
    }

    /**
     * Waits for the sender's END and compares. An RSR whose send() threw does not count as sent;
     * if it arrives all the same it is counted apart, neither delivered nor duplicated.
     *
     * @return a line {@code stream result: sent=… delivered=… lost=… duplicated=… reordered=…
     *     failed-sends=… arrived-despite-failure=…} and the first lost and reordered numbers, one
     *     line each, or a line saying END did not come
     */
    synchronized String awaitResult(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (end == null) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return "stream result: no END from the sender within " + timeoutMillis + " ms; " + arrivals
                    + " RSRs arrived (" + seen.cardinality() + " distinct)";
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        int attempts = (int) end.attempts();
        BitSet sent = new BitSet(attempts);
        sent.set(0, attempts);
        sent.andNot(end.failed());
        BitSet delivered = (BitSet) seen.clone();
        delivered.and(sent);
        BitSet despiteFailure = (BitSet) seen.clone();
        despiteFailure.and(end.failed());
        long lost = sent.cardinality() - delivered.cardinality();
        BitSet missing = (BitSet) sent.clone();
        missing.andNot(seen);
        StringBuilder details = new StringBuilder();
        missing.stream().limit(DETAILS).forEach(n -> details.append("\nlost: #").append(n));
        outOfOrder.forEach(o -> details.append("\nreordered: ").append(o));
        return "stream result: sent=" + sent.cardinality() + " delivered=" + delivered.cardinality() + " lost=" + lost
            + " duplicated=" + duplicates + " reordered=" + reordered + " failed-sends=" + end.failed().cardinality()
            + " arrived-despite-failure=" + despiteFailure.cardinality() + details;
    }
}
