package io.polylink.testkit;

import java.util.BitSet;

/** Counts what a stream of sequence numbers did wrong: lost, duplicated, reordered, corrupted. */
public final class SequenceCheck {

    private final BitSet seen = new BitSet();
    private long highest = -1;
    private long delivered;
    private long duplicated;
    private long reordered;
    private long corrupted;

    /**
     * @param seq a number from 0 up, as sent
     * @param intact whether the payload was the one sent with it
     * @return whether this is the first time {@code seq} arrived
     */
    public synchronized boolean accept(long seq, boolean intact) {
        delivered++;
        if (!intact) {
            corrupted++;
        }
        if (seq < 0 || seq > Integer.MAX_VALUE - 1 || seen.get((int) seq)) {
            duplicated++;
            return false;
        }
        seen.set((int) seq);
        if (seq < highest) {
            reordered++;
        }
        highest = Math.max(highest, seq);
        return true;
    }

    /** @return arrivals, copies included */
    public synchronized long delivered() {
        return delivered;
    }

    public synchronized long duplicated() {
        return duplicated;
    }

    public synchronized long reordered() {
        return reordered;
    }

    /** @return how many of the numbers from {@code from} up to {@code to} (exclusive) never arrived */
    public synchronized long missing(long from, long to) {
        return to - from - seen.get((int) from, (int) to).cardinality();
    }

    public synchronized String summary(long sent) {
        long lost = sent - seen.cardinality();
        return "sent " + sent + ", delivered " + delivered + ", lost " + lost + ", duplicated " + duplicated
            + ", reordered " + reordered + ", corrupted " + corrupted;
    }

    public synchronized boolean perfect(long sent) {
        return seen.cardinality() == sent && duplicated == 0 && reordered == 0 && corrupted == 0 && delivered == sent;
    }
}
