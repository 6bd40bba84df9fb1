package io.polylink.bench.internal.pingpong;

import io.polylink.core.internal.EmbeddedContext;
import io.polylink.method.tcp.internal.TcpMethod;
import java.util.Map;

/** What the polylink client and server share: handler ids and how a context is made. */
final class PolylinkPeers {

    /** Server: carries the client's startpoint, sent once before anything else. */
    static final int SETUP = 1;
    /** Server: answered with a message of the same size to the client's {@link #PING}. */
    static final int PING = 2;
    /** Server: counted. */
    static final int STREAM = 3;
    /** Server: answered with the count of {@link #STREAM} messages to the client's {@code STREAM_END}. */
    static final int STREAM_END = 4;

    private PolylinkPeers() {}

    /**
     * @param idle the tcp method's idle strategy
     * @return a context with tcp on loopback only
     */
    static EmbeddedContext open(String idle) {
        return EmbeddedContext.open().add(new TcpMethod(Map.of("bindAddress", "127.0.0.1", "idleStrategy", idle)), 50);
    }
}
