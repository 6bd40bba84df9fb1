package io.polylink.bench.internal;

import io.polylink.Endpoint;
import io.polylink.Handler;
import io.polylink.MessageBuffer;

/** The handler every RSR benchmark runs: reads a long, as a small real handler would. */
final class PayloadReader implements Handler {

    private long last;

    @Override
    public void handle(Endpoint endpoint, MessageBuffer message) {
        last = message.getLong();
    }

    /** @return the value read last, for the benchmark to return so the read is not optimised away */
    long last() {
        return last;
    }
}
