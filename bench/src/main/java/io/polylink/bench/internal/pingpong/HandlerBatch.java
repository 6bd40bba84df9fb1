package io.polylink.bench.internal.pingpong;

import org.HdrHistogram.Histogram;

/**
 * Round trips driven by the reply handler itself ({@code --driver handler}): the handler times the
 * round trip that just ended and sends the next message from the thread that received the reply,
 * so no other thread takes part until the last one. Published to that thread through a volatile
 * field before the first send; after that only that thread touches it until {@link #done} is
 * signalled.
 */
final class HandlerBatch {

    private final Histogram into;
    private final ReplySignal done;
    private int remaining;
    private long sentAt;

    /**
     * @param count round trips, at least 1
     * @param into where each round trip's nanoseconds go
     * @param done signalled after the last reply
     */
    HandlerBatch(int count, Histogram into, ReplySignal done) {
        this.remaining = count;
        this.into = into;
        this.done = done;
    }

    /** Just before the first message goes out. */
    void started() {
        sentAt = System.nanoTime();
    }

    /**
     * On the receiving thread, for each reply.
     *
     * @return whether the caller should send the next message now (the clock for it has started)
     */
    boolean replied() {
        long now = System.nanoTime();
        ClientLoop.record(into, now - sentAt);
        if (--remaining > 0) {
            sentAt = System.nanoTime();
            return true;
        }
        done.signal();
        return false;
    }
}
