package io.polylink.itests.process;

import io.polylink.Context;
import io.polylink.ContextId;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A node's echo handler, answering to a counting sink of the driver's: the healthy link a test watches. */
final class EchoLink {

    /** The sink's handler. */
    static final int SINK = 7;

    final AtomicLong echoed = new AtomicLong();
    final Endpoint sink;
    final Startpoint echo;
    final MessageBuffer message;

    EchoLink(Driver driver, String node) {
        Context me = driver.context();
        sink = me.createEndpoint().register(SINK, (e, m) -> echoed.incrementAndGet());
        echo = driver.lookup(node);
        message = me.allocateBuffer(64);
    }

    /** Sends one echo request, numbered {@code i}. */
    void send(long i) {
        echo.send(Driver.ECHO, message.clear().putStartpoint(sink.startpoint()).putInt(SINK).putLong(i));
    }

    /** Sends {@code n} echo requests and waits until every answer came back. */
    void roundTrips(int n, String when) {
        long expected = echoed.get() + n;
        for (int i = 0; i < n; i++) {
            send(i);
        }
        Driver.await(() -> echoed.get() >= expected, Duration.ofSeconds(30),
            () -> (expected - echoed.get()) + " of " + n + " echoes did not come back " + when);
    }

    /** @return the node's context id */
    ContextId node() {
        return echo.targets().get(0).context();
    }

    /** @return the node's first tcp address */
    InetSocketAddress address() throws IOException {
        return RawTcpPeer.address(echo);
    }
}
