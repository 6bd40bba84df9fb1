package io.polylink.core.internal;

import io.polylink.core.internal.buffer.MessageBuffers;
import java.util.List;

/**
 * A test's way into the parts of an embedded context, for tests of one part that need a real
 * context around it.
 */
public final class Internals {

    private Internals() {}

    /** @return where the context's message buffers come from */
    public static MessageBuffers buffers(EmbeddedContext context) {
        return runtime(context).buffers;
    }

    /** @return RSRs the context's only flow has sent and the peer not yet acknowledged */
    public static int unacknowledged(EmbeddedContext context) {
        List<Flow> flows = List.copyOf(runtime(context).flows());
        if (flows.size() != 1) {
            throw new AssertionError("flows: " + flows);
        }
        return flows.get(0).unacknowledged();
    }

    private static ContextRuntime runtime(EmbeddedContext context) {
        return (ContextRuntime) context.context();
    }
}
