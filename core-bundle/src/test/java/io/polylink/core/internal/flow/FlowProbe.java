package io.polylink.core.internal.flow;

import java.util.List;

/** What tests of other parts read of a context's flows. */
public final class FlowProbe {

    private FlowProbe() {}

    /**
     * @return the context's only flow
     * @throws AssertionError if it has none or several
     */
    public static OutboundFlow onlyFlow(Flows flows) {
        List<OutboundFlow> all = List.copyOf(flows.all());
        if (all.size() != 1) {
            throw new AssertionError("flows: " + all);
        }
        return all.get(0);
    }

    /** @return bytes the flow keeps in large copies for reuse */
    static long spareLargeBytes(OutboundFlow flow) {
        flow.lock.lock();
        try {
            return flow.copies.largeBytes();
        } finally {
            flow.unlockAndHandOver();
        }
    }
}
