package io.polylink.spi;

import io.polylink.Explanation;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Chooses the table entry that carries a link. Register as an OSGi service; the context uses the
 * highest-ranked one.
 *
 * <p>A policy may choose by the size of an RSR too ({@link #sizeClasses}): the link then sends
 * each RSR by the choice for its size, and keeps its order across the stacks it uses, since an
 * RSR goes by another stack than the one before it only once the peer has acknowledged everything
 * sent before it (docs/writing-a-method.md#choosing-by-size).
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

    /**
     * The sizes at which this policy's choice for a target may change. The context then asks
     * {@link #select} once more for each class of sizes (a request whose
     * {@link SelectionRequest#sizes()} is the class) and sends each RSR by its class's choice. The
     * choice for {@link SelectionRequest.Sizes#ALL} still explains the link and carries it where a
     * class's choice cannot be connected.
     *
     * @param request the target, its table and where it runs, for all sizes
     * @return at most {@value #MAX_SIZE_CLASSES} ascending payload sizes greater than 0, each the
     *     smallest of a class (the first class starts at 0); none, the default, for one choice
     *     whatever the size
     */
    default int[] sizeClasses(SelectionRequest request) {
        return new int[0];
    }

    /** The most size classes a policy may ask for, per target. */
    int MAX_SIZE_CLASSES = 16;
}
