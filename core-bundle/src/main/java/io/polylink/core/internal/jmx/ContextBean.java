package io.polylink.core.internal.jmx;

import io.polylink.Context;
import io.polylink.core.internal.flow.Flows;
import java.util.function.Supplier;

/** One context's statistics, read live. */
final class ContextBean implements ContextMXBean {

    private final Context context;
    private final Supplier<String> name;
    private final Flows flows;

    ContextBean(Context context, Supplier<String> name, Flows flows) {
        this.context = context;
        this.name = name;
        this.flows = flows;
    }

    @Override
    public String getId() {
        return context.id().toString();
    }

    @Override
    public String getName() {
        String n = name.get();
        return n == null ? "" : n;
    }

    @Override
    public String[] getMethods() {
        return context.methods().toArray(String[]::new);
    }

    @Override
    public String[] getTransforms() {
        return context.transforms().toArray(String[]::new);
    }

    @Override
    public long getMessagesSent() {
        return context.statistics().messagesSent();
    }

    @Override
    public long getBytesSent() {
        return context.statistics().bytesSent();
    }

    @Override
    public long getMessagesReceived() {
        return context.statistics().messagesReceived();
    }

    @Override
    public long getBytesReceived() {
        return context.statistics().bytesReceived();
    }

    @Override
    public long getErrors() {
        return context.statistics().errors();
    }

    @Override
    public int getLinks() {
        return flows.count();
    }

    @Override
    public long getRoundTrips() {
        return flows.roundTrips().count();
    }

    @Override
    public double getRoundTripP50Micros() {
        return flows.roundTrips().p50Nanos() / 1e3;
    }

    @Override
    public double getRoundTripP99Micros() {
        return flows.roundTrips().p99Nanos() / 1e3;
    }
}
