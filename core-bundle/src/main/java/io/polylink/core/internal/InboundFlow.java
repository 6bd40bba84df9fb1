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
     * @throws io.polylink.MalformedMessageException if RSRs before it are missing
     */
    boolean admit(int sequence) {
        if (sequence - expected < 0) {
            return false;
        }
        if (sequence != expected) {
            // A sender numbers without gaps and each connection carries a flow's RSRs from its
            // announcement on, in order: a gap means this connection lost frames. Delivering
            // past it would lose or reorder RSRs; closing it makes the sender move and send
            // everything unacknowledged again.
            throw new io.polylink.MalformedMessageException("RSR " + sequence + " of flow "
                + Long.toHexString(key.flow()) + " from " + key.peer() + " arrived while " + expected
                + " was expected: the connection lost RSRs; closing it so the sender sends them again");
        }
        expected = sequence + 1;
        return true;
    }

    /** @return the last sequence number delivered */
    synchronized int delivered() {
        return expected - 1;
    }
}
