package io.polylink.method.shm.internal.connect;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Frames this context sent to any peer: by any thread, which tells the poller a conversation from
 * a stream, and by the poller's own thread, which tells it that it answers what it receives (an
 * inline handler replying), so that the next record waits on the peer's turn, not on a thread of
 * this process (see the poller's backoff). Increments from several threads may race and get lost;
 * an estimate does.
 */
public final class SendCounter {

    private final AtomicInteger sent = new AtomicInteger();
    private volatile Thread poller;
    /** Frames the poller's thread sent; written by that thread only. */
    private int sentByPoller;

    /** A connection sent a frame, on whatever thread: an ordered store, no locked add per frame. */
    void sent() {
        sent.lazySet(sent.get() + 1);
        if (Thread.currentThread() == poller) {
            sentByPoller++;
        }
    }

    /** @param thread the thread that polls the inbox, whose own sends {@link #byPoller} counts */
    public void poller(Thread thread) {
        this.poller = thread;
    }

    /** @return frames sent so far, wrapping around */
    public int get() {
        return sent.get();
    }

    /** @return frames the poller's thread sent so far, wrapping around; on that thread only */
    public int byPoller() {
        return sentByPoller;
    }
}
