package io.polylink.core.internal.endpoint;

import io.polylink.Context;
import io.polylink.ContextId;
import io.polylink.Startpoint;
import io.polylink.core.internal.buffer.MessageBufferImpl;
import io.polylink.core.internal.local.LocalMethod;
import io.polylink.core.internal.observe.Counters;
import io.polylink.core.internal.observe.Problems;
import java.util.concurrent.Executor;
import java.util.function.IntFunction;

/**
 * This context's endpoints: it makes them, and finds the one an RSR names. Delivery runs on the
 * thread that found the RSR (a method's receiving thread, or a sender's for plain {@code local});
 * each endpoint then runs the handler there or hands it to the handler pool.
 */
public final class Endpoints {

    private final EndpointTable table = new EndpointTable();
    final Context context;
    final Executor handlers;
    final Counters counters;
    final Problems problems;
    private final IntFunction<Startpoint> startpointTo;

    /**
     * @param context the context they belong to, as handlers see it
     * @param handlers where {@link io.polylink.Delivery#EXECUTOR} handlers run
     * @param counters the context's counters, which count every delivery too
     * @param problems where unknown endpoints and handlers and failing handlers are reported
     * @param startpointTo makes a startpoint to the endpoint of an id, with this context's table
     */
    public Endpoints(Context context, Executor handlers, Counters counters, Problems problems,
                     IntFunction<Startpoint> startpointTo) {
        this.context = context;
        this.handlers = handlers;
        this.counters = counters;
        this.problems = problems;
        this.startpointTo = startpointTo;
    }

    /** @throws IllegalStateException if the context has as many endpoints open as it can */
    public EndpointImpl create(Object attachment) {
        return table.add(this, attachment);
    }

    /** @return the open endpoint with this id, or {@code null} */
    public EndpointImpl get(int id) {
        return table.get(id);
    }

    /** An RSR from {@code from} over {@code method} named an endpoint that is not open: it is dropped. */
    public void unknown(ContextId from, String method, int endpoint, int handler) {
        problems.error("unknown endpoint", "RSR for handler " + handler + " of unknown or closed endpoint "
            + endpoint + " from " + from + " over " + method + " dropped");
    }

    /**
     * Delivers an RSR sent within this context on plain {@code local}: no frame, and an inline
     * handler reads the sender's own buffer.
     */
    public void deliverLocal(int endpoint, int handler, MessageBufferImpl message) {
        EndpointImpl target = table.get(endpoint);
        if (target == null) {
            unknown(context.id(), LocalMethod.NAME, endpoint, handler);
            return;
        }
        message.flatten(); // a handler reads the message as one run of bytes
        message.beginLocalDelivery();
        try {
            target.deliver(handler, message);
        } finally {
            message.endLocalDelivery();
        }
    }

    Startpoint startpointTo(int endpoint) {
        return startpointTo.apply(endpoint);
    }

    void remove(EndpointImpl endpoint) {
        table.remove(endpoint);
    }
}
