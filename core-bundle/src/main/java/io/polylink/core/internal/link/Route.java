package io.polylink.core.internal.link;

import io.polylink.core.internal.buffer.MessageBufferImpl;

/** How one target of a startpoint is reached, as binding its flow decided; immutable. */
interface Route {

    /** @return whether the route may still be used in the context's current generation */
    boolean isCurrent(int generation);

    /** Sends one RSR; see {@link io.polylink.Startpoint#send}. */
    void send(int handler, MessageBufferImpl message);
}
