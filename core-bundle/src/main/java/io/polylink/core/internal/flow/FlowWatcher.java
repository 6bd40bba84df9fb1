package io.polylink.core.internal.flow;

/**
 * Told as flows begin and end, for observers that keep something per link (JMX). Called on the
 * thread that makes or forgets the flow, a sender's among them, and sometimes inside a map's
 * update: a watcher only hands the news on, to a thread of its own, and never blocks.
 */
public interface FlowWatcher {

    FlowWatcher NONE = new FlowWatcher() {
        @Override
        public void opened(OutboundFlow flow) {}

        @Override
        public void closed(OutboundFlow flow) {}
    };

    /** A flow began; it may be told twice. */
    void opened(OutboundFlow flow);

    /** A flow ended: it retired, or was abandoned, or the context closed. */
    void closed(OutboundFlow flow);
}
