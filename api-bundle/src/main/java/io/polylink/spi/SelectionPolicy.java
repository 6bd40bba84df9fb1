package io.polylink.spi;

import io.polylink.Explanation;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Chooses the table entry that carries a link. Register as an OSGi service; the context uses the
 * highest-ranked one.
 */
@ConsumerType
public interface SelectionPolicy {

    /** @return the policy's name, shown in explanations */
    String name();

    /**
     * @param request the target and its table, with the core's assessment of each entry
     * @return a verdict for every entry in table order, at most one {@code CHOSEN}, and it must be
     *     an entry the request assessed as usable
     */
    Explanation select(SelectionRequest request);
}
