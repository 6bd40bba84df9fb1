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

    /**
     * Checks one entry on its own: installed here, allowed by the startpoint, and applicable
     * according to its method. May cost a method call; call it once per entry.
     *
     * @param index the entry
     * @return {@code CHOSEN} if the entry is usable, else why not
     */
    Assessment assess(int index);

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
