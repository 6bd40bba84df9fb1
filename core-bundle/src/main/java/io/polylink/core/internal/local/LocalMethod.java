package io.polylink.core.internal.local;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.Statistics;
import io.polylink.spi.Applicability;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.spi.MethodContext;
import java.util.Map;

/**
 * The {@code local} method: links within one context. A plain {@code local} link skips framing
 * (the flow delivers straight to the endpoint); a transformed one ({@code lz4/local}) goes through
 * a {@link LoopbackConnection}, so transforms can be tried without a second process. Its
 * connections deliver each frame before their send returns, which the core is told when it
 * installs the method.
 */
public final class LocalMethod implements CommunicationMethod {

    public static final String NAME = "local";
    private static final byte[] NO_ADDRESS = new byte[0];

    private volatile MethodContext context;
    private LoopbackConnection loopback;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void start(MethodContext context) {
        this.context = context;
    }

    @Override
    public synchronized void stop() {
        if (loopback != null) {
            loopback.close();
            loopback = null;
        }
    }

    @Override
    public byte[] localAddress() {
        return NO_ADDRESS;
    }

    @Override
    public Applicability applicable(ContextId peer, byte[] address) {
        return peer.equals(context.contextId()) ? Applicability.yes("same context")
            : Applicability.no("other context");
    }

    @Override
    public synchronized Connection connect(ContextId peer, byte[] address, Map<String, String> parameters) {
        if (!peer.equals(context.contextId())) {
            throw new LinkException("local method cannot reach context " + peer + ": it is another context");
        }
        if (loopback == null || !loopback.isOpen()) {
            loopback = new LoopbackConnection(peer);
            loopback.attach(context.inbound().open(loopback));
        }
        return loopback;
    }

    @Override
    public String describe(byte[] address) {
        return "this context";
    }

    @Override
    public Statistics statistics() {
        LoopbackConnection current;
        synchronized (this) {
            current = loopback;
        }
        return current == null ? Statistics.ZERO : current.statistics();
    }
}
