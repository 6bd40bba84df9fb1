package io.polylink.core.internal;

import java.util.List;

/**
 * The core's parameters, from the {@code io.polylink.core} configuration.
 *
 * @param maxMessageSize largest RSR payload in bytes
 * @param handlerThreads threads running {@link io.polylink.Delivery#EXECUTOR} handlers
 * @param table the stacks this context advertises, in order, after {@code local}; empty for every
 *     installed method in preference order
 * @param id the context id to use, or {@code null} for a random one
 */
record CoreSettings(int maxMessageSize, int handlerThreads, List<String> table, io.polylink.ContextId id) {

    static final int DEFAULT_MAX_MESSAGE_SIZE = 8 << 20;
    static final CoreSettings DEFAULTS = new CoreSettings(DEFAULT_MAX_MESSAGE_SIZE, 2, List.of(), null);

    CoreSettings {
        if (maxMessageSize < 1024 || maxMessageSize > (1 << 30)) {
            throw new IllegalArgumentException("maxMessageSize " + maxMessageSize
                + " is outside 1024..1073741824");
        }
        if (handlerThreads < 1 || handlerThreads > 1024) {
            throw new IllegalArgumentException("handlerThreads " + handlerThreads + " is outside 1..1024");
        }
        table = List.copyOf(table);
    }
}
