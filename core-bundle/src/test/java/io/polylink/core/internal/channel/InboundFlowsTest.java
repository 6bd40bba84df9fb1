package io.polylink.core.internal.channel;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.polylink.ContextId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a context remembers of the flows peers announce, whatever they announce: a flow a channel
 * carries is never forgotten; idle ones are, oldest first, beyond the bounds. A flow still
 * remembered comes back as the same object (it carries on where it was), a forgotten one as a new.
 */
class InboundFlowsTest {

    private final InboundFlows flows = new InboundFlows();
    private final ContextId flooder = ContextId.random();
    private final ContextId bystander = ContextId.random();

    private static InboundFlow.Key key(ContextId peer, long flow) {
        return new InboundFlow.Key(peer, flow);
    }

    private List<InboundFlow> carryAll(ContextId peer, int count) {
        List<InboundFlow> carried = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            carried.add(flows.carry(key(peer, i), 1));
        }
        return carried;
    }

    @Test
    void aPeerBeyondItsShareForgetsItsOwnIdleFlowsFirstAndNobodyElses() {
        InboundFlow other = flows.carry(key(bystander, 1), 1);
        flows.release(other);
        List<InboundFlow> own = carryAll(flooder, InboundFlows.PER_PEER);
        own.forEach(flows::release);

        assertNotNull(flows.carry(key(flooder, InboundFlows.PER_PEER), 1));

        assertNotSame(own.get(0), flows.carry(key(flooder, 0), 1), "the peer's oldest idle flow was forgotten");
        assertSame(own.get(2), flows.carry(key(flooder, 2), 1), "its newer ones were not");
        assertSame(other, flows.carry(key(bystander, 1), 1), "another peer's idle flow was not");
    }

    @Test
    void liveFlowsAreNeverForgottenSoAPeerWithItsShareLiveHasMoreRefused() {
        List<InboundFlow> own = carryAll(flooder, InboundFlows.PER_PEER);

        assertNull(flows.carry(key(flooder, InboundFlows.PER_PEER), 1));

        assertNotNull(flows.carry(key(bystander, 1), 1), "another peer is not refused");
        assertSame(own.get(0), flows.carry(key(flooder, 0), 1), "a live flow announced again is the same flow");
        flows.release(own.get(5));
        assertSame(own.get(5), flows.carry(key(flooder, 5), 1), "an idle flow announced again carries on");
    }

    @Test
    void idleFlowsBeyondTheCapacityAreForgottenOldestFirstAndLiveOnesStay() {
        InboundFlow live = flows.carry(key(bystander, 0), 1);
        List<InboundFlow> idle = new ArrayList<>();
        for (int i = 0; i <= InboundFlows.IDLE_CAPACITY; i++) {
            InboundFlow f = flows.carry(key(ContextId.random(), i), 1);
            flows.release(f);
            idle.add(f);
        }

        assertSame(idle.get(1), flows.carry(idle.get(1).key(), 1), "the second oldest idle flow is remembered");
        assertNotSame(idle.get(0), flows.carry(idle.get(0).key(), 1), "the oldest was forgotten");
        assertSame(live, flows.carry(key(bystander, 0), 1), "a live flow is never forgotten");
    }
}
