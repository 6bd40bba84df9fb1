package io.polylink.mpi.internal.plogp;

/**
 * What the measurer and the mirror say to each other on their communicator: a command is three
 * longs (what, the message size, how many), under {@link #COMMAND}; the measured messages go
 * under {@link #DATA}, the mirror's empty answers under {@link #ACK}.
 */
final class Protocol {

    static final int COMMAND = 1;
    static final int DATA = 2;
    static final int ACK = 3;
    static final int RESULT = 4;
    static final int HOSTS = 5;

    /** The mirror stops. */
    static final long END = 0;
    /** Each message comes back. */
    static final long ROUND_TRIPS = 1;
    /** Each message finds its receive posted, and an empty answer follows it. */
    static final long SENDS = 2;
    /** The mirror sends a message each time it is asked. */
    static final long RECEIVES = 3;
    /** Messages back to back, an empty answer after the last. */
    static final long STREAM = 4;

    /** The most bytes of a stream in flight at once. */
    private static final long STREAM_BYTES = 16L << 20;

    /** The most messages of a stream in flight at once, as OSU's bandwidth test has them. */
    private static final int STREAM_WINDOW = 64;

    private Protocol() {}

    /** @return how many messages of {@code m} bytes a stream has in flight at once */
    static int window(long m) {
        return (int) Math.max(1, Math.min(STREAM_WINDOW, STREAM_BYTES / Math.max(1, m)));
    }

    /** @return the bytes the mirror receives a stream of {@code m}-byte messages into */
    static long streamBytes(long m) {
        return m * window(m);
    }
}
