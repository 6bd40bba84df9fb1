package io.polylink.core.internal;

import io.polylink.Statistics;
import java.util.concurrent.atomic.LongAdder;

/** Contention-friendly counters behind a {@link Statistics} snapshot. */
final class Counters {

    private final LongAdder messagesSent = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder messagesReceived = new LongAdder();
    private final LongAdder bytesReceived = new LongAdder();
    private final LongAdder errors = new LongAdder();

    void sent(int bytes) {
        messagesSent.increment();
        bytesSent.add(bytes);
    }

    void received(int bytes) {
        messagesReceived.increment();
        bytesReceived.add(bytes);
    }

    void error() {
        errors.increment();
    }

    Statistics snapshot() {
        return new Statistics(messagesSent.sum(), bytesSent.sum(), messagesReceived.sum(),
            bytesReceived.sum(), errors.sum());
    }
}
