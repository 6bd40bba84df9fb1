package io.polylink.core.internal.link;

import io.polylink.Explanation;
import io.polylink.core.internal.buffer.MessageBufferImpl;
import io.polylink.core.internal.flow.Flows;
import io.polylink.core.internal.flow.OutboundFlow;

/** One target's way into its flow: the flow numbers, keeps and sends. */
final class FlowRoute implements Route {

    private final Flows flows;
    private final OutboundFlow flow;
    private final int endpoint;
    private final int generation;

    FlowRoute(Flows flows, OutboundFlow flow, int endpoint, int generation) {
        this.flows = flows;
        this.flow = flow;
        this.endpoint = endpoint;
        this.generation = generation;
    }

    @Override
    public boolean isCurrent(int generation) {
        return generation == this.generation && !flow.retired();
    }

    /** @return the flow's explanation: it may have moved since the route was made */
    Explanation explanation() {
        return flow.explanation(endpoint);
    }

    @Override
    public void send(int handler, MessageBufferImpl message) {
        flows.send(flow, endpoint, handler, message);
    }
}
