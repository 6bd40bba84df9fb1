package io.polylink.method.shm.internal.connect;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Frames this context sent to any peer, by any thread: how many went out between two records
 * tells the poller a conversation from a stream (see the poller's backoff). Increments may race
 * and get lost; an estimate does.
 */
public final class SendCounter {

    private final AtomicInteger sent = new AtomicInteger();

    /** A connection sent a frame, on whatever thread: an ordered store, no locked add per frame. */
    void sent() {
        sent.lazySet(sent.get() + 1);
    }

    /** @return frames sent so far, wrapping around */
    public int get() {
        return sent.get();
    }
}
