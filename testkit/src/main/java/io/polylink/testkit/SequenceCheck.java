package io.polylink.itests.process;

import java.util.BitSet;

/** Counts what a stream of sequence numbers did wrong: lost, duplicated, reordered, corrupted. */
final class SequenceCheck {

    private final BitSet seen = new BitSet();
    private long highest = -1;
    private long delivered;
    private long duplicated;
    private long reordered;
    private long corrupted;

    synchronized void accept(long seq, boolean checksumOk) {
        delivered++;
        if (!checksumOk) {
            corrupted++;
        }
        if (seen.get((int) seq)) {
            duplicated++;
            return;
        }
        seen.set((int) seq);
        if (seq < highest) {
            reordered++;
        }
        highest = Math.max(highest, seq);
    }

    synchronized long delivered() {
        return delivered;
    }

    synchronized String summary(long sent) {
        long lost = sent - seen.cardinality();
        return "sent " + sent + ", delivered " + delivered + ", lost " + lost + ", duplicated " + duplicated
            + ", reordered " + reordered + ", corrupted " + corrupted;
    }

    synchronized boolean perfect(long sent) {
        return seen.cardinality() == sent && duplicated == 0 && reordered == 0 && corrupted == 0 && delivered == sent;
    }
}
