package io.polylink.core.internal.channel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The acknowledgements one channel owes, kept without allocating: each flow the channel receives
 * has one {@link Slot}, queued at most once however many acknowledgements pile up behind it, and
 * the sequence number sent is read as the frame is written, so it is the latest.
 *
 * <p>Any thread may {@link #request}; only a holder of the channel's send lock takes slots out
 * ({@link #peek}, {@link #sent}, {@link #clear}).
 */
final class AckLane {

    /**
     * One flow's place in the lane, and its look for quiet on this channel: each channel that
     * carries a flow looks on its own, so a look left pending on a channel that closed cannot
     * keep the flow's next channel from acknowledging.
     */
    static final class Slot {
        final InboundFlow flow;
        private volatile boolean queued;
        /** The next slot in whichever list holds this one; written before the slot is published. */
        private Slot next;
        /** Whether a look for quiet is due; under the flow's monitor. */
        private boolean quietCheckDue;
        /** The flow's next sequence number when the look was set, or when it last found RSRs coming. */
        private int nextAtCheck;

        Slot(InboundFlow flow) {
            this.flow = flow;
        }

        /**
         * Caller holds the flow's monitor, after an RSR the sender asked nothing about.
         *
         * @return whether the caller should look for quiet later: none is due on this channel yet
         */
        boolean quietCheckNeeded() {
            if (quietCheckDue) {
                return false;
            }
            quietCheckDue = true;
            nextAtCheck = flow.next();
            return true;
        }

        /**
         * On the thread of the quiet checks, without the flow's monitor.
         *
         * @return whether RSRs came since the look was set; if so the next is measured from now
         */
        boolean busySinceCheck() {
            int now = flow.nextSeen();
            if (now != nextAtCheck) {
                nextAtCheck = now;
                return true;
            }
            return false;
        }

        /** Caller holds the flow's monitor: the look found the flow quiet; the next RSR sets another. */
        void quietCheckDone() {
            quietCheckDue = false;
        }
    }

    private static final VarHandle QUEUED;
    private static final VarHandle HEAD;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            QUEUED = lookup.findVarHandle(Slot.class, "queued", boolean.class);
            HEAD = lookup.findVarHandle(AckLane.class, "head", Slot.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Slots requested since the send lock's holder last took them, newest first. */
    private volatile Slot head;
    /** Slots taken out and not yet sent, oldest first; under the send lock. */
    private volatile Slot taken;

    /** The slot's flow owes its sender an acknowledgement: it goes with the channel's next control frames. */
    void request(Slot slot) {
        if (!QUEUED.compareAndSet(slot, false, true)) {
            return;
        }
        Slot h;
        do {
            h = head;
            slot.next = h;
        } while (!HEAD.compareAndSet(this, h, slot));
    }

    boolean isEmpty() {
        return taken == null && head == null;
    }

    /** Caller holds the send lock. @return the next slot to send, or {@code null} */
    Slot peek() {
        if (taken == null && head != null) {
            taken = reversed((Slot) HEAD.getAndSet(this, null));
        }
        return taken;
    }

    /**
     * Caller holds the send lock: the acknowledgement of {@code slot}, the one {@link #peek}
     * returned, went out saying {@code sequence}. A request that came while it was being written
     * found the slot queued and did nothing, so the slot is queued again if its flow moved on.
     */
    void sent(Slot slot, int sequence) {
        taken = slot.next;
        slot.next = null;
        slot.queued = false;
        if (slot.flow.acknowledgedUpTo() != sequence) {
            request(slot);
        }
    }

    /** Caller holds the send lock: the connection failed, so nothing queued will go. */
    void clear() {
        Slot s = taken;
        taken = null;
        drop(s);
        drop((Slot) HEAD.getAndSet(this, null));
    }

    private static void drop(Slot s) {
        while (s != null) {
            Slot next = s.next;
            s.next = null;
            s.queued = false;
            s = next;
        }
    }

    /** Oldest first, so a flow that waited longest goes first. */
    private static Slot reversed(Slot s) {
        Slot out = null;
        while (s != null) {
            Slot next = s.next;
            s.next = out;
            out = s;
            s = next;
        }
        return out;
    }
}
