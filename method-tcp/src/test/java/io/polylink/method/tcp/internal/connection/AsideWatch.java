package io.polylink.method.tcp.internal.connection;

import io.polylink.ContextId;
import io.polylink.Statistics;
import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.method.tcp.internal.TestMethodContext;
import io.polylink.spi.Applicability;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import io.polylink.spi.InboundSink;
import io.polylink.spi.MethodContext;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A tcp method whose connections' receivers a test watches, as the core sees them: the frames a
 * sender read aside that the core took, and those it declined, which the I/O thread then
 * delivers. Everything else goes to the method as it is.
 */
final class AsideWatch implements CommunicationMethod {

    private final TcpMethod tcp;
    final AtomicLong taken = new AtomicLong();
    final AtomicLong declined = new AtomicLong();

    AsideWatch(TcpMethod tcp) {
        this.tcp = tcp;
    }

    @Override
    public void start(MethodContext context) throws IOException {
        InboundSink core = context.inbound();
        tcp.start(TestMethodContext.with(context, connection -> watch(core.open(connection))));
    }

    private FrameReceiver watch(FrameReceiver receiver) {
        return new FrameReceiver() {
            @Override
            public boolean onFrame(ByteBuffer frame) {
                return receiver.onFrame(frame);
            }

            @Override
            public boolean offerAside(ByteBuffer frame) {
                boolean took = receiver.offerAside(frame);
                (took ? taken : declined).incrementAndGet();
                return took;
            }

            @Override
            public void onClosed(Throwable cause) {
                receiver.onClosed(cause);
            }
        };
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
