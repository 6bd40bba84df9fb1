package io.polylink.core.internal.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.ContextId;
import org.junit.jupiter.api.Test;

/** A channel's owed acknowledgements: each flow once in the lane, and never one left unsent. */
class AckLaneTest {

    private final AckLane lane = new AckLane();
    private final InboundFlow a = flow(1);
    private final InboundFlow b = flow(2);
    private final AckLane.Slot slotA = new AckLane.Slot(a);
    private final AckLane.Slot slotB = new AckLane.Slot(b);

    private static InboundFlow flow(long id) {
        return new InboundFlow(new InboundFlow.Key(ContextId.random(), id), 0);
    }

    /** Delivers the next RSR of {@code flow} and notes it as owed, as a receiving channel does. */
    private static void deliverAndOwe(InboundFlow flow, int sequence) {
        synchronized (flow) {
            assertTrue(flow.admit(sequence));
            flow.acknowledgeDelivered();
        }
    }

    @Test
    void aFlowAskedForManyTimesIsQueuedOnceAndSendsItsLatestNumber() {
        deliverAndOwe(a, 0);
        lane.request(slotA);
        deliverAndOwe(b, 0);
        lane.request(slotB);
        deliverAndOwe(a, 1);
        lane.request(slotA);

        assertSame(slotA, lane.peek(), "the flow that waited longest goes first");
        assertEquals(1, a.acknowledgedUpTo());
        lane.sent(slotA, 1);
        assertSame(slotB, lane.peek());
        lane.sent(slotB, 0);
        assertNull(lane.peek(), "each flow once, however often it asked");
        assertTrue(lane.isEmpty());
    }

    @Test
    void anAcknowledgementOwedWhileTheLastWasBeingWrittenIsQueuedAgain() {
        deliverAndOwe(a, 0);
        lane.request(slotA);
        AckLane.Slot writing = lane.peek();
        int sequence = writing.flow.acknowledgedUpTo();
        // While the frame saying 0 is written, RSR 1 arrives: its request finds the slot queued.
        deliverAndOwe(a, 1);
        lane.request(slotA);
        lane.sent(writing, sequence);

        assertSame(slotA, lane.peek(), "RSR 1 is still owed");
        lane.sent(slotA, a.acknowledgedUpTo());
        assertTrue(lane.isEmpty(), "nothing is owed once the latest number went");
    }

    @Test
    void aSlotLeftUnsentIsTheFirstNextTime() {
        deliverAndOwe(a, 0);
        lane.request(slotA);
        deliverAndOwe(b, 0);
        lane.request(slotB);
        assertSame(slotA, lane.peek());
        // The connection would not take it now: the caller leaves it where it is.
        assertSame(slotA, lane.peek(), "still first");
        lane.sent(slotA, 0);
        assertSame(slotB, lane.peek());
    }

    @Test
    void clearingForgetsWhatWasOwedAndLetsTheFlowsAskAgain() {
        deliverAndOwe(a, 0);
        lane.request(slotA);
        deliverAndOwe(b, 0);
        lane.request(slotB);
        lane.peek(); // takes both out of the shared stack
        deliverAndOwe(b, 1);
        lane.clear();
        assertTrue(lane.isEmpty());

        lane.request(slotA);
        lane.request(slotB);
        assertSame(slotA, lane.peek(), "both could ask again after the clear");
        lane.sent(slotA, 0);
        assertSame(slotB, lane.peek());
        lane.sent(slotB, 1);
        assertTrue(lane.isEmpty());
    }
}
