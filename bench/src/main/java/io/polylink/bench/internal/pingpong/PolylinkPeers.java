package io.polylink.bench.internal.pingpong;

import io.polylink.testkit.SampleData;

/** What the polylink client and server share: handler ids and payloads. Contexts: {@link PolylinkNode}. */
final class PolylinkPeers {

    /** Server: carries the client's startpoint, sent once before anything else. */
    static final int SETUP = 1;
    /** Server: answered with a message of the same size to the client's {@link #PING}. */
    static final int PING = 2;
    /** Server: counted. */
    static final int STREAM = 3;
    /** Server: answered with the count of {@link #STREAM} messages to the client's {@code STREAM_END}. */
    static final int STREAM_END = 4;
    /**
     * Server: carries the startpoint of the client's background endpoint (multi's tcp ping-pong),
     * which the server answers over tcp only.
     */
    static final int BACKGROUND_SETUP = 5;
    /** Server: answered over tcp to the background endpoint, with the same size. */
    static final int BACKGROUND_PING = 6;

    private PolylinkPeers() {}

    /**
     * @return {@code size} bytes of JSON-like log records: content matters to lz4 alone, and for
     *     it records are realistic (they shrink to a third or so) where zeros would flatter it
     */
    static byte[] payload(int size) {
        return SampleData.records(size, size);
    }
}
