package io.polylink;

import java.util.List;
import java.util.Optional;

/**
 * Why selection chose what it chose for one target: a verdict and a reason for every entry of the
 * target's descriptor table, in table order.
 *
 * @param target the endpoint's context
 * @param endpoint the endpoint's id
 * @param policy the name of the selection policy that decided
 * @param entries one line per table entry
 */
public record Explanation(ContextId target, int endpoint, String policy, List<Entry> entries) {

    /** Copies {@code entries}. */
    public Explanation {
        entries = List.copyOf(entries);
    }

    /** @return the chosen entry, or empty if none was applicable */
    public Optional<Entry> chosen() {
        return entries.stream().filter(e -> e.verdict() == Verdict.CHOSEN).findFirst();
    }

    /**
     * One table entry and what selection made of it.
     *
     * @param index the entry's position in the table, from 0
     * @param descriptor the entry
     * @param verdict chosen or why not
     * @param reason a short human-readable reason
     */
    public record Entry(int index, Descriptor descriptor, Verdict verdict, String reason) {
        @Override
        public String toString() {
            return descriptor.stack() + " " + verdict.name().toLowerCase().replace('_', ' ')
                + " (" + reason + ")";
        }
    }

    /** @return one line per entry, e.g. {@code 1. shm chosen (same host)} */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("endpoint ").append(endpoint).append('@').append(target)
            .append(" by ").append(policy).append(':');
        for (Entry e : entries) {
            out.append("\n  ").append(e.index() + 1).append(". ").append(e);
        }
        return out.toString();
    }
}
