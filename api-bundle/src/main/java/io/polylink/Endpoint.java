package io.polylink;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The receiving end of links: a table of handlers in one context. Endpoints cannot move;
 * startpoints to them can.
 *
 * <p>All methods are thread-safe; handlers may be registered and removed while RSRs arrive.
 */
@ProviderType
public interface Endpoint extends AutoCloseable {

    /** The largest handler id. */
    int MAX_HANDLER_ID = 0xFFFF;

    /** @return this endpoint's id, unique within its context */
    int id();

    /** @return the context this endpoint lives in */
    Context context();

    /**
     * Registers an inline handler; see {@link Delivery#INLINE}.
     *
     * @param handlerId 0 to {@link #MAX_HANDLER_ID}
     * @param handler the code to run
     * @return this endpoint
     * @throws IllegalArgumentException if {@code handlerId} is out of range
     */
    Endpoint register(int handlerId, Handler handler);

    /**
     * Registers a handler, replacing any handler with the same id.
     *
     * @param handlerId 0 to {@link #MAX_HANDLER_ID}
     * @param delivery where the handler runs
     * @param handler the code to run
     * @return this endpoint
     * @throws IllegalArgumentException if {@code handlerId} is out of range
     */
    Endpoint register(int handlerId, Delivery delivery, Handler handler);

    /**
     * @param handlerId a registered handler id; unknown ids are ignored
     * @return this endpoint
     */
    Endpoint unregister(int handlerId);

    /** @return the local object given at creation, or {@code null} */
    Object attachment();

    /** @return a new startpoint bound to this endpoint, carrying its context's current table */
    Startpoint startpoint();

    /** @return RSRs and bytes received by this endpoint, and errors in handling them */
    Statistics statistics();

    /** Stops delivery to this endpoint; RSRs arriving later are counted as unknown. Idempotent. */
    @Override
    void close();
}
