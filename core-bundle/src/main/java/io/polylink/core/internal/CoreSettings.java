package io.polylink.core.internal;

import io.polylink.ContextId;
import io.polylink.spi.HostIdentity;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The core's parameters, from the {@code io.polylink.core} configuration.
 *
 * @param maxMessageSize largest RSR payload in bytes
 * @param handlerThreads threads running {@link io.polylink.Delivery#EXECUTOR} handlers
 * @param table the stacks this context advertises, in order, after {@code local}; empty for every
 *     installed method in preference order
 * @param id the context id to use, or {@code null} for a random one
 * @param abandonAfterMs how long RSRs a peer has not acknowledged wait for a way to it, tried
 *     again each second, before they are dropped
 * @param quietAckMs how long a flow's receiver waits after its last RSR before acknowledging what
 *     the sender has not asked about, so the sender lets its copies go; 0: only when asked
 * @param host the identity of this host, or {@code null} to find it
 */
record CoreSettings(int maxMessageSize, int handlerThreads, List<String> table, ContextId id,
                    long abandonAfterMs, long quietAckMs, HostIdentity host) {

    static final int DEFAULT_MAX_MESSAGE_SIZE = 8 << 20;
    static final long DEFAULT_ABANDON_AFTER_MS = 30_000;
    static final long DEFAULT_QUIET_ACK_MS = 1000;
    static final CoreSettings DEFAULTS = new CoreSettings(DEFAULT_MAX_MESSAGE_SIZE, 2, List.of(), null,
        DEFAULT_ABANDON_AFTER_MS, DEFAULT_QUIET_ACK_MS, null);

    CoreSettings {
        if (maxMessageSize < 1024 || maxMessageSize > (1 << 30)) {
            throw new IllegalArgumentException("maxMessageSize " + maxMessageSize
                + " is outside 1024..1073741824");
        }
        if (handlerThreads < 1 || handlerThreads > 1024) {
            throw new IllegalArgumentException("handlerThreads " + handlerThreads + " is outside 1..1024");
        }
        if (abandonAfterMs < 1 || abandonAfterMs > TimeUnit.DAYS.toMillis(1)) {
            throw new IllegalArgumentException("abandonAfterMs " + abandonAfterMs + " is outside 1..86400000");
        }
        if (quietAckMs < 0 || quietAckMs > TimeUnit.HOURS.toMillis(1)) {
            throw new IllegalArgumentException("quietAckMs " + quietAckMs + " is outside 0..3600000");
        }
        table = List.copyOf(table);
        if (host == null) {
            host = LocalHost.identity();
        }
    }
}
