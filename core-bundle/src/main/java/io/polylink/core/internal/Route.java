package io.polylink.core.internal;

/** How one target of a startpoint is reached, as selection decided; immutable. */
interface Route {

    /** @return whether the route may still be used in the context's current generation */
    boolean isCurrent(int generation);

    /**
     * @return why the route's connection failed, if it did; the link reports this once, to its
     *     next send, before it selects and connects again
     */
    default io.polylink.LinkException failure() {
        return null;
    }

    /** Sends one RSR; see {@link io.polylink.Startpoint#send}. */
    void send(int handler, MessageBufferImpl message);
}
