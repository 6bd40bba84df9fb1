package io.polylink.core.internal.jmx;

import io.polylink.core.internal.flow.OutboundFlow;
import io.polylink.core.internal.observe.RoundTrips;

/** One flow's statistics, read live. */
final class LinkBean implements LinkMXBean {

    private final OutboundFlow flow;

    LinkBean(OutboundFlow flow) {
        this.flow = flow;
    }

    @Override
    public String getId() {
        return String.format("%016x", flow.id());
    }

    @Override
    public String getPeer() {
        return flow.peer().toString();
    }

    @Override
    public String getStack() {
        return flow.stack();
    }

    @Override
    public long getMessagesSent() {
        return flow.sent();
    }

    @Override
    public int getUnacknowledged() {
        return flow.unacknowledged();
    }

    @Override
    public long getRoundTrips() {
        return flow.roundTrips().snapshot().count();
    }

    @Override
    public double getRoundTripP50Micros() {
        return flow.roundTrips().snapshot().p50Nanos() / 1e3;
    }

    @Override
    public double getRoundTripP99Micros() {
        return flow.roundTrips().snapshot().p99Nanos() / 1e3;
    }

    @Override
    public double getRoundTripMaxMicros() {
        return flow.roundTrips().snapshot().maxNanos() / 1e3;
    }
}
