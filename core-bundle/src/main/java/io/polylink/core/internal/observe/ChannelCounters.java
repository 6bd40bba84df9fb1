package io.polylink.core.internal.observe;

import io.polylink.Statistics;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A channel's counters. Each direction has one writer at a time: sends hold the channel's send
 * lock, and a connection's frames arrive in order, so on one thread at a time. An ordered store
 * then does what an atomic add would, without a locked instruction on every frame. Errors come
 * from any thread.
 */
public final class ChannelCounters {

    private final AtomicLong messagesSent = new AtomicLong();
    private final AtomicLong bytesSent = new AtomicLong();
    private final AtomicLong messagesReceived = new AtomicLong();
    private final AtomicLong bytesReceived = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();

    /** Caller holds the channel's send lock. */
    public void sent(int bytes) {
        messagesSent.lazySet(messagesSent.get() + 1);
        bytesSent.lazySet(bytesSent.get() + bytes);
    }

    /** On the channel's receiving thread. */
    public void received(int bytes) {
        messagesReceived.lazySet(messagesReceived.get() + 1);
        bytesReceived.lazySet(bytesReceived.get() + bytes);
    }

    public void error() {
        errors.incrementAndGet();
    }

    public Statistics snapshot() {
        return new Statistics(messagesSent.get(), bytesSent.get(), messagesReceived.get(), bytesReceived.get(),
            errors.get());
    }
}
