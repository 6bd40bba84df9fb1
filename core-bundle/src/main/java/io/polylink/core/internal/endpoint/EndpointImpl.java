package io.polylink.core.internal.endpoint;

import io.polylink.Context;
import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.Handler;
import io.polylink.Startpoint;
import io.polylink.Statistics;
import io.polylink.core.internal.buffer.MessageBufferImpl;
import io.polylink.core.internal.concurrent.ReceivingThread;
import io.polylink.core.internal.concurrent.SerialExecutor;
import io.polylink.core.internal.observe.Counters;
import java.util.Arrays;
import java.util.Objects;

/**
 * An endpoint: a copy-on-write handler table read without locks on the delivery path.
 */
public final class EndpointImpl implements Endpoint {

    private static final HandlerSlot[] NONE = new HandlerSlot[0];

    private final Endpoints owner;
    private final int id;
    private final Object attachment;
    private final Counters counters = new Counters();
    /** The context's counters, read once here: every delivery counts there too. */
    private final Counters contextCounters;
    private final SerialExecutor executor;
    private volatile HandlerSlot[] handlers = NONE;
    private volatile boolean closed;

    EndpointImpl(Endpoints owner, int id, Object attachment) {
        this.owner = owner;
        this.id = id;
        this.attachment = attachment;
        this.contextCounters = owner.counters;
        this.executor = new SerialExecutor(owner.handlers);
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public Context context() {
        return owner.context;
    }

    @Override
    public Endpoint register(int handlerId, Handler handler) {
        return register(handlerId, Delivery.INLINE, handler);
    }

    @Override
    public synchronized Endpoint register(int handlerId, Delivery delivery, Handler handler) {
        checkHandlerId(handlerId);
        HandlerSlot slot = new HandlerSlot(Objects.requireNonNull(handler, "handler"),
            Objects.requireNonNull(delivery, "delivery"));
        HandlerSlot[] next = handlerId < handlers.length ? handlers.clone()
            : Arrays.copyOf(handlers, handlerId + 1);
        next[handlerId] = slot;
        handlers = next;
        return this;
    }

    @Override
    public synchronized Endpoint unregister(int handlerId) {
        if (handlerId >= 0 && handlerId < handlers.length) {
            HandlerSlot[] next = handlers.clone();
            next[handlerId] = null;
            handlers = next;
        }
        return this;
    }

    @Override
    public Object attachment() {
        return attachment;
    }

    @Override
    public Startpoint startpoint() {
        return owner.startpointTo(id);
    }

    @Override
    public Statistics statistics() {
        return counters.snapshot();
    }

    @Override
    public void close() {
        closed = true;
        owner.remove(this);
    }

    boolean isClosed() {
        return closed;
    }

    /**
     * Runs the handler for one RSR. Never throws: unknown handlers and failing handlers are
     * counted and logged.
     *
     * @param message positioned at the payload; valid only during this call
     */
    public void deliver(int handlerId, MessageBufferImpl message) {
        HandlerSlot[] table = handlers;
        HandlerSlot slot = handlerId < table.length ? table[handlerId] : null;
        if (slot == null || closed) {
            counters.error();
            owner.problems.error("unknown handler", "RSR for unknown handler " + handlerId + " of " + this
                + " dropped; register the handler before sending to it");
            return;
        }
        int length = message.length();
        if (slot.delivery() == Delivery.INLINE) {
            int[] token = ReceivingThread.enter();
            try {
                run(slot.handler(), handlerId, message);
            } finally {
                ReceivingThread.exit(token);
            }
            // Counted after the handler: a reply it sends goes out without waiting for the counters.
            received(length);
        } else {
            received(length);
            MessageBufferImpl copy = message.detachedCopy();
            try {
                executor.execute(() -> run(slot.handler(), handlerId, copy));
            } catch (RuntimeException rejected) {
                failed(handlerId, rejected);
            }
        }
    }

    private void received(int length) {
        counters.received(length);
        contextCounters.received(length);
    }

    private void run(Handler handler, int handlerId, MessageBufferImpl message) {
        try {
            handler.handle(this, message);
        } catch (Throwable t) {
            failed(handlerId, t);
        }
    }

    private void failed(int handlerId, Throwable failure) {
        counters.error();
        // A kind per thing thrown: a handler failing in a loop holds back only lines like its own,
        // and what it held back is named.
        owner.problems.error("handler failed: " + failure.getClass().getName(), "handler " + handlerId + " of " + this
            + " threw " + failure, failure);
    }

    /** @throws IllegalArgumentException if the id is not one a handler can have */
    public static void checkHandlerId(int handlerId) {
        if (handlerId < 0 || handlerId > MAX_HANDLER_ID) {
            throw new IllegalArgumentException("handler id " + handlerId + " is outside 0.."
                + MAX_HANDLER_ID);
        }
    }

    @Override
    public String toString() {
        return "endpoint " + id + "@" + owner.context.id();
    }
}
