package io.polylink.bench.internal.pingpong;

import org.HdrHistogram.Histogram;

/**
 * The client side of one implementation, called by {@link ClientLoop} from one thread. Every wait
 * is bounded: a peer that stops answering fails the run instead of hanging it.
 */
interface PingPongClient extends AutoCloseable {

    /** Prepares messages of {@code size} payload bytes for the calls that follow. */
    void size(int size) throws Exception;

    /**
     * Runs {@code count} round trips one after another: a message of the current size out, a reply
     * of the same size back, the next message only after the reply.
     *
     * @param into where each round trip's nanoseconds go, warm-ups included: a warm-up that
     *     recorded nothing left the recording uncompiled, and the JIT compiled it, and recompiled
     *     the paths it is inlined into, through the measured round trips
     */
    void roundTrips(int count, Histogram into) throws Exception;

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
