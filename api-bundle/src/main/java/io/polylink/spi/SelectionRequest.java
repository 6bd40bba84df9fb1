package io.polylink.spi;

import io.polylink.ContextId;
import io.polylink.DescriptorTable;
import io.polylink.Verdict;
import org.osgi.annotation.versioning.ProviderType;

/** One target to choose a method stack for. */
@ProviderType
public interface SelectionRequest {

    /** @return the endpoint's context */
    ContextId target();

    /** @return the endpoint's id */
    int endpoint();

    /** @return the table to choose from, after the startpoint's edits */
    DescriptorTable table();

    /** @return where the target runs, seen from this context, as its table says */
    PeerLocation location();

    /**
     * @return the payload sizes of the RSRs this choice is for: {@link Sizes#ALL} for a link's
     *     choice, or one of the classes its policy asked for ({@link SelectionPolicy#sizeClasses})
     */
    Sizes sizes();

    /**
     * Checks one entry on its own: installed here, allowed by the startpoint, and applicable
     * according to its method. May cost a method call; call it once per entry.
     *
     * @param index the entry
     * @return {@code CHOSEN} if the entry is usable, else why not
     */
    Assessment assess(int index);

    /**
     * Payload sizes, in bytes, both ends included.
     *
     * @param smallest the smallest, 0 or more
     * @param largest the largest, {@code smallest} or more
     */
    record Sizes(int smallest, int largest) {

        /** Every size: the choice for a whole link. */
        public static final Sizes ALL = new Sizes(0, Integer.MAX_VALUE);

        /** @throws IllegalArgumentException if the sizes are negative or out of order */
        public Sizes {
            if (smallest < 0 || largest < smallest) {
                throw new IllegalArgumentException("sizes " + smallest + " to " + largest
                    + " are not a range of payload sizes");
            }
        }

        /** @return whether {@code size} is in the range */
        public boolean contains(int size) {
            return size >= smallest && size <= largest;
        }

        @Override
        public String toString() {
            return largest == Integer.MAX_VALUE ? smallest + " B and more" : smallest + " to " + largest + " B";
        }
    }

    /**
     * @param verdict {@link Verdict#CHOSEN} for a usable entry, otherwise the kind of refusal
     * @param reason why, short and specific
     */
    record Assessment(Verdict verdict, String reason) {
        /** @return whether the entry can carry the link */
        public boolean usable() {
            return verdict == Verdict.CHOSEN;
        }
    }
}
