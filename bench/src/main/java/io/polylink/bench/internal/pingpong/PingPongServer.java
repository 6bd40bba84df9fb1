package io.polylink.bench.internal.pingpong;

/** The server side of one implementation: answers pings and counts streams on its own threads. */
interface PingPongServer extends AutoCloseable {

    /** @return what the client needs to reach this server: a port, or a startpoint's text */
    String address();

    @Override
    void close() throws Exception;
}
