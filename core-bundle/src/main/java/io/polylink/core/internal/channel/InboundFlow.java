package io.polylink.core.internal.channel;

import io.polylink.ContextId;
import io.polylink.MalformedMessageException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What a receiver knows of one flow of a peer: the next sequence number it expects. A flow may
 * arrive over two connections at once while its sender moves it (the old one still draining, the
 * new one replaying what was not acknowledged), so each RSR is checked and delivered under this
 * object's lock: whichever copy comes first is delivered, in order, the other is dropped.
 */
final class InboundFlow {

    /** Sender and the sender's id for the flow: what a flow is known by across connections. */
    record Key(ContextId peer, long flow) {}

    private static final VarHandle EXPECTED;

    static {
        try {
            EXPECTED = MethodHandles.lookup().findVarHandle(InboundFlow.class, "expected", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Key key;
    /** How many open channels carry this flow; guarded by {@link InboundFlows}. */
    int carriers;
    /**
     * Written under the monitor, plainly: a volatile store on every RSR would cost the receiving
     * thread a fence. {@link #nextSeen} reads it without the monitor; a late view only delays an
     * acknowledgement.
     */
    private int expected;
    /**
     * The last sequence number to acknowledge to the sender; written under the monitor, read by
     * whoever writes the acknowledgement frame.
     */
    private volatile int acknowledged;

    InboundFlow(Key key, int first) {
        this.key = key;
        this.expected = first;
        this.acknowledged = first - 1;
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
            throw new MalformedMessageException("RSR " + sequence + " of flow "
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

    /** Caller holds the monitor: everything delivered is to be acknowledged. */
    void acknowledgeDelivered() {
        acknowledged = expected - 1;
    }

    /** @return the sequence number an acknowledgement written now says */
    int acknowledgedUpTo() {
        return acknowledged;
    }

    /** Caller holds the monitor. @return the sequence number expected next */
    int next() {
        return expected;
    }

    /** @return the sequence number expected next, read without the monitor, perhaps late */
    int nextSeen() {
        return (int) EXPECTED.getAcquire(this);
    }

    /** Caller holds the monitor. @return whether RSRs were delivered after the last acknowledgement */
    boolean unacknowledged() {
        return expected - 1 != acknowledged;
    }
}
