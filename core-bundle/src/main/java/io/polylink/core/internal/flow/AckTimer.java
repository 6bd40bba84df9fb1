package io.polylink.core.internal.flow;

import io.polylink.core.internal.observe.RoundTrips;

/**
 * Times a flow's round trips on its acknowledgements: one RSR that asks for an acknowledgement is
 * timed at a time, from its send to the acknowledgement that covers it, never every RSR. Started
 * under the flow's lock; stopped on the receiving thread that takes the acknowledgement.
 */
final class AckTimer {

    private final RoundTrips roundTrips = new RoundTrips();
    /** The RSR timed now, written before {@link #sentAt}. */
    private int sequence;
    /** When the timed RSR was sent, from {@link System#nanoTime()}; 0 while none is timed. */
    private volatile long sentAt;

    /** RSR {@code sequence} asks for an acknowledgement: it is timed unless another one is. */
    void requested(int sequence) {
        if (sentAt == 0) {
            this.sequence = sequence;
            sentAt = System.nanoTime();
        }
    }

    /** The peer delivered everything up to {@code sequence}. */
    void acknowledged(int sequence) {
        long at = sentAt;
        if (at != 0 && sequence - this.sequence >= 0) {
            sentAt = 0;
            roundTrips.record(System.nanoTime() - at);
        }
    }

    /** What is sent again is acknowledged late: the RSR timed now gives no round trip. */
    void forget() {
        sentAt = 0;
    }

    RoundTrips roundTrips() {
        return roundTrips;
    }
}
