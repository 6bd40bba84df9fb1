package io.polylink.core.internal.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.ContextId;
import io.polylink.MalformedMessageException;
import org.junit.jupiter.api.Test;

/** What a receiver admits of one flow: each number once, in order, and never past a gap. */
class InboundFlowTest {

    private final InboundFlow flow = new InboundFlow(new InboundFlow.Key(ContextId.random(), 0xabcL), 5);

    @Test
    void admitsInOrderAndDropsCopies() {
        assertFalse(flow.admit(4), "before the announced first: a copy");
        assertTrue(flow.admit(5));
        assertTrue(flow.admit(6));
        assertFalse(flow.admit(6), "a copy from the other connection");
        assertFalse(flow.admit(5));
        assertEquals(6, flow.delivered());
    }

    @Test
    void aGapIsAConnectionThatLostRsrsAndAdmitsNothingPastIt() {
        assertTrue(flow.admit(5));
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> flow.admit(8));
        assertTrue(e.getMessage().contains("RSR 8 of flow abc") && e.getMessage().contains("6 was expected"),
            e.getMessage());
        assertEquals(5, flow.delivered(), "nothing past the gap was delivered");
        // The sender moves and sends everything unacknowledged again, from 6.
        assertTrue(flow.admit(6));
        assertTrue(flow.admit(7));
        assertTrue(flow.admit(8));
    }

    @Test
    void numbersWrapAround() {
        InboundFlow late = new InboundFlow(new InboundFlow.Key(ContextId.random(), 1), Integer.MAX_VALUE);
        assertTrue(late.admit(Integer.MAX_VALUE));
        assertTrue(late.admit(Integer.MIN_VALUE));
        assertFalse(late.admit(Integer.MAX_VALUE));
    }
}
