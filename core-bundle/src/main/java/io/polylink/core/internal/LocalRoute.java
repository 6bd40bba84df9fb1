package io.polylink.core.internal;

import io.polylink.core.internal.buffer.MessageBufferImpl;

/**
 * The plain {@code local} stack: the handler runs on the sender's thread (inline) or gets a copy
 * (executor); no frame, no copy for inline handlers.
 */
final class LocalRoute implements Route {

    private final ContextRuntime runtime;
    private final int endpoint;
    private final int generation;

    LocalRoute(ContextRuntime runtime, int endpoint, int generation) {
        this.runtime = runtime;
        this.endpoint = endpoint;
        this.generation = generation;
    }

    @Override
    public boolean isCurrent(int generation) {
        return generation == this.generation;
    }

    @Override
    public void send(int handler, MessageBufferImpl message) {
        runtime.endpoints.deliverLocal(endpoint, handler, message);
    }
}
