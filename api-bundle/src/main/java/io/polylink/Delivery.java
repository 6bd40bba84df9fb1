package io.polylink;

/** Where a handler runs when an RSR for it arrives. */
public enum Delivery {
    /**
     * On the thread that delivered the message: the method's I/O thread, or the sender's thread
     * for a link within one context. Fastest; for short handlers that never block. The message is
     * valid only until the handler returns.
     */
    INLINE,
    /**
     * On the context's executor. The message is a private copy the handler may keep; delivery
     * order per link still holds for handlers of one endpoint.
     */
    EXECUTOR
}
