package io.polylink.core.internal;

import io.polylink.Explanation;
import io.polylink.LinkException;
import io.polylink.core.internal.buffer.MessageBufferImpl;

/** One target's way into its flow: the flow numbers, keeps and sends. */
final class FlowRoute implements Route {

    private final ContextRuntime runtime;
    private final Flow flow;
    private final int endpoint;
    private final int generation;

    FlowRoute(ContextRuntime runtime, Flow flow, int endpoint, int generation) {
        this.runtime = runtime;
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
        Flow current = flow;
        // A flow retires only with nothing unacknowledged, so its successor carries on in order.
        for (int attempt = 0; !current.send(endpoint, handler, message); attempt++) {
            if (attempt == 8) {
                throw new LinkException(flow + " keeps retiring under the sender");
            }
            current = runtime.flow(current.key().peer(), current.table(), current.key().options());
        }
    }
}
