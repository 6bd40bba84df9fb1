package io.polylink.core.internal;

import io.polylink.ContextId;

/**
 * What a receiver knows of one flow of a peer: the next sequence number it expects. A flow may
 * arrive over two connections at once while its sender moves it (the old one still draining, the
 * new one replaying what was not acknowledged), so each RSR is checked and delivered under this
 * object's lock: whichever copy comes first is delivered, in order, the other is dropped.
 */
final class InboundFlow {

    /** Sender and the sender's id for the flow: what a flow is known by across connections. */
    record Key(ContextId peer, long flow) {}

    private final Key key;
    private int expected;

    InboundFlow(Key key, int first) {
        this.key = key;
        this.expected = first;
    }

    Key key() {
        return key;
    }

    /**
     * Admits the RSR numbered {@code sequence}; the caller delivers it while still holding this
     * object's monitor, so deliveries of one flow never overtake each other.
     *
     * @return whether it is new (deliver it) rather than a copy already delivered
     */
    boolean admit(int sequence) {
        if (sequence - expected < 0) {
            return false;
        }
        // Ahead only if the sender gave up on RSRs it had numbered (it told their senders they
        // failed); nothing to wait for.
        expected = sequence + 1;
        return true;
    }

    /** @return the last sequence number delivered */
    synchronized int delivered() {
        return expected - 1;
    }
}
