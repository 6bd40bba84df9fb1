package io.polylink.core.internal.link;

import io.polylink.core.internal.buffer.MessageBufferImpl;
import io.polylink.core.internal.endpoint.Endpoints;

/**
 * The plain {@code local} stack: the handler runs on the sender's thread (inline) or gets a copy
 * (executor); no frame, no copy for inline handlers.
 */
final class LocalRoute implements Route {

    private final Endpoints endpoints;
    private final int endpoint;
    private final int generation;

    LocalRoute(Endpoints endpoints, int endpoint, int generation) {
        this.endpoints = endpoints;
        this.endpoint = endpoint;
        this.generation = generation;
    }

    @Override
    public boolean isCurrent(int generation) {
        return generation == this.generation;
    }

    @Override
    public void send(int handler, MessageBufferImpl message) {
        endpoints.deliverLocal(endpoint, handler, message);
    }
}
