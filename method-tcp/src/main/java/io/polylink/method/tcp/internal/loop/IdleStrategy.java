package io.polylink.method.tcp.internal.loop;

/**
 * What the I/O thread does when there is nothing to do. Waking a blocked thread costs tens of
 * microseconds; a spinning one answers in a few, but burns a core. Configured by name, in any case
 * with {@code -} for {@code _}: {@code spin-then-block}.
 */
public enum IdleStrategy {
    /**
     * Poll without ever blocking: lowest latency, one core busy for good. At the sending end of a
     * bulk stream, which hears only acknowledgements, it yields between polls.
     */
    SPIN,
    /**
     * Poll for a while after the last work, then block: fast under traffic, quiet when idle. At the
     * sending end of a bulk stream it polls only briefly.
     */
    SPIN_THEN_BLOCK,
    /** Always block in the selector: least CPU, one wake-up per message. */
    BLOCK
}
