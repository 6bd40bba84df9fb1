package io.polylink.core.internal;

/** One target's way into its flow: the flow numbers, keeps and sends. */
final class FlowRoute implements Route {

    private final Flow flow;
    private final int endpoint;
    private final int generation;

    FlowRoute(Flow flow, int endpoint, int generation) {
        this.flow = flow;
        this.endpoint = endpoint;
        this.generation = generation;
    }

    @Override
    public boolean isCurrent(int generation) {
        return generation == this.generation && !flow.retired();
    }

    /** @return the flow's explanation: it may have moved since the route was made */
    io.polylink.Explanation explanation() {
        return flow.explanation(endpoint);
    }

    @Override
    public void send(int handler, MessageBufferImpl message) {
        flow.send(endpoint, handler, message);
    }
}
