package io.polylink.method.tcp.internal;

import io.polylink.ContextId;
import io.polylink.Statistics;
import io.polylink.spi.Applicability;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import io.polylink.spi.InboundSink;
import io.polylink.spi.MethodContext;
import java.io.IOException;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * A tcp method whose connections hand their frames to the core through a test's wrapper, which
 * watches them or misbehaves as the core could; everything else goes to the method as it is.
 */
public final class WrappedReceivers implements CommunicationMethod {

    private final TcpMethod tcp;
    private final BiFunction<Connection, FrameReceiver, FrameReceiver> wrap;

    /** @param wrap given a connection and the core's receiver of it, returns what the connection gets */
    public WrappedReceivers(TcpMethod tcp, BiFunction<Connection, FrameReceiver, FrameReceiver> wrap) {
        this.tcp = tcp;
        this.wrap = wrap;
    }

    @Override
    public void start(MethodContext context) throws IOException {
        InboundSink core = context.inbound();
        tcp.start(TestMethodContext.with(context, connection -> wrap.apply(connection, core.open(connection))));
    }

    @Override
    public String name() {
        return tcp.name();
    }

    @Override
    public void stop() {
        tcp.stop();
    }

    @Override
    public byte[] localAddress() {
        return tcp.localAddress();
    }

    @Override
    public Applicability applicable(ContextId peer, byte[] address) {
        return tcp.applicable(peer, address);
    }

    @Override
    public Connection connect(ContextId peer, byte[] address, Map<String, String> parameters) {
        return tcp.connect(peer, address, parameters);
    }

    @Override
    public String describe(byte[] address) {
        return tcp.describe(address);
    }

    @Override
    public Statistics statistics() {
        return tcp.statistics();
    }
}
