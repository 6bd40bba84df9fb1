package io.polylink.bench.internal.pingpong;

/**
 * The client side of one implementation, driven by {@link ClientLoop} from one thread. Every wait
 * is bounded: a peer that stops answering fails the run instead of hanging it.
 */
interface PingPongClient extends AutoCloseable {

    /** Prepares messages of {@code size} payload bytes for the calls that follow. */
    void size(int size) throws Exception;

    /** Sends one message and returns once the same-sized reply has arrived. */
    void roundTrip() throws Exception;

    /**
     * Sends {@code messages} messages one way, back to back, each its own send, then returns once
     * the server has acknowledged the last one.
     *
     * @throws IllegalStateException if the server counted a different number
     */
    void stream(int messages) throws Exception;

    @Override
    void close() throws Exception;
}
