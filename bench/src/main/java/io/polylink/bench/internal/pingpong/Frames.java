package io.polylink.bench.internal.pingpong;

/**
 * The framing the raw-nio and netty-nio peers share, network byte order:
 *
 * <pre>
 *   0               4               8
 *   |    length     |      op       |  payload (length - 4 bytes) ...
 * </pre>
 *
 * {@code length} counts the op and the payload. {@link #PING} is answered with the same frame;
 * {@link #STREAM} with nothing; {@link #STREAM_END} with a {@link #STREAM_END} frame whose payload
 * is the number of {@link #STREAM} frames received since the last one (8 bytes).
 */
final class Frames {

    static final int HEADER = 8;
    static final int PING = 1;
    static final int STREAM = 2;
    static final int STREAM_END = 3;
    /** Bounds what a peer accepts: the largest size plus room. */
    static final int MAX_LENGTH = PingPongOptions.MAX_SIZE + 64;

    private Frames() {}
}
