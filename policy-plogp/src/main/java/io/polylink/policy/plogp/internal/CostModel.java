package io.polylink.policy.plogp.internal;

import io.polylink.Descriptor;
import io.polylink.plogp.LinkModel;
import io.polylink.plogp.SizeParameters;
import io.polylink.spi.SelectionPolicy;
import io.polylink.spi.SelectionRequest.Sizes;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Which measured entry is fastest for which sizes: the time a message of {@code m} bytes takes to
 * arrive is its model's {@code L + g(m)}. The smallest sizes go by the first entry in table order
 * unless another is faster by the margin; sizes are cut into classes where another entry becomes
 * faster than the current one by the margin, at the size where their models cross (they are
 * linear between measured sizes).
 */
final class CostModel {

    static final double DEFAULT_MARGIN = 0.05;

    /** An entry the policy can predict: usable for the target, with a model of its stack. */
    record Candidate(int index, Descriptor entry, LinkModel model) {
        double time(long m) {
            return model.messageTime(m);
        }
    }

    private final List<Candidate> candidates;
    /** Every size some candidate was measured at that fits an RSR, ascending. */
    private final long[] sizes;
    /** Each class's first size after the first class's, ascending. */
    private final int[] starts;
    /** The fastest candidate of each class. */
    private final Candidate[] fastest;

    /** @param candidates at least one, in table order */
    CostModel(List<Candidate> candidates, double margin) {
        this.candidates = List.copyOf(candidates);
        List<Integer> cuts = new ArrayList<>();
        List<Candidate> winners = new ArrayList<>();
        this.sizes = sizes(this.candidates);
        // The target's order stands unless a model says another entry is faster by the margin.
        Candidate current = candidates.get(0);
        Candidate best = fastestAt(sizes[0]);
        if (best.time(sizes[0]) * (1 + margin) <= current.time(sizes[0])) {
            current = best;
        }
        winners.add(current);
        for (int k = 1; k < sizes.length && cuts.size() < SelectionPolicy.MAX_SIZE_CLASSES; k++) {
            best = fastestAt(sizes[k]);
            if (best != current && best.time(sizes[k]) * (1 + margin) <= current.time(sizes[k])) {
                cuts.add(crossing(current, best, sizes[k - 1], sizes[k], margin));
                current = best;
                winners.add(current);
            }
        }
        this.starts = cuts.stream().mapToInt(Integer::intValue).toArray();
        this.fastest = winners.toArray(Candidate[]::new);
    }

    /** @return every size some candidate was measured at, that fits an RSR, ascending; at least one */
    private static long[] sizes(List<Candidate> candidates) {
        TreeSet<Long> all = new TreeSet<>();
        for (Candidate c : candidates) {
            for (SizeParameters p : c.model().sizes()) {
                if (p.bytes() <= Integer.MAX_VALUE) {
                    all.add(p.bytes());
                }
            }
        }
        if (all.isEmpty()) {
            all.add(0L);
        }
        return all.stream().mapToLong(Long::longValue).toArray();
    }

    private Candidate fastestAt(long m) {
        Candidate best = candidates.get(0);
        for (Candidate c : candidates) {
            if (c.time(m) < best.time(m)) {
                best = c;
            }
        }
        return best;
    }

    /** @return the first size in {@code (from, to]} at which {@code next} beats {@code current} by the margin */
    private static int crossing(Candidate current, Candidate next, long from, long to, double margin) {
        long low = from;
        long high = to; // next wins at high, not at low
        while (high - low > 1) {
            long mid = (low + high) >>> 1;
            if (next.time(mid) * (1 + margin) <= current.time(mid)) {
                high = mid;
            } else {
                low = mid;
            }
        }
        return (int) high;
    }

    /** @return the first size of each class after the first */
    int[] starts() {
        return starts.clone();
    }

    /**
     * @return the fastest candidate for {@code range}: a class's, if it is one; else the one
     *     whose predictions across it are least behind the fastest at each measured size
     */
    Candidate fastest(Sizes range) {
        for (int i = 0; i < fastest.length; i++) {
            int from = i == 0 ? 0 : starts[i - 1];
            int to = i == starts.length ? Integer.MAX_VALUE : starts[i] - 1;
            if (range.smallest() == from && range.largest() == to) {
                return fastest[i];
            }
        }
        Candidate best = null;
        double bestBehind = Double.MAX_VALUE;
        for (Candidate c : candidates) {
            double behind = 0;
            for (long m : sizes) {
                if (range.contains((int) Math.min(m, Integer.MAX_VALUE))) {
                    behind += c.time(m) / Math.max(fastestAt(m).time(m), Double.MIN_NORMAL);
                }
            }
            if (best == null || behind < bestBehind) {
                best = c;
                bestBehind = behind;
            }
        }
        return best;
    }

    /** @return each class's sizes and its fastest stack, e.g. {@code tcp below 4096 B, lz4/tcp from 4096 B} */
    String classes() {
        if (starts.length == 0) {
            return fastest[0].entry().stack() + " for every size";
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < fastest.length; i++) {
            out.append(i == 0 ? "" : ", ").append(fastest[i].entry().stack())
                .append(i == 0 ? " below " + starts[0] : " from " + starts[i - 1]).append(" B");
        }
        return out.toString();
    }
}
