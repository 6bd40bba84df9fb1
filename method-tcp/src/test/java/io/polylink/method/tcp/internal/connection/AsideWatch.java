package io.polylink.method.tcp.internal.connection;

import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.method.tcp.internal.WrappedReceivers;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.FrameReceiver;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A tcp method whose connections' receivers a test watches, as the core sees them: the frames a
 * sender read aside that the core took, and those it declined, which the I/O thread then
 * delivers.
 */
final class AsideWatch {

    final AtomicLong taken = new AtomicLong();
    final AtomicLong declined = new AtomicLong();
    /** The method to give the context. */
    final CommunicationMethod method;

    AsideWatch(TcpMethod tcp) {
        this.method = new WrappedReceivers(tcp, (connection, receiver) -> watch(receiver));
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
}
