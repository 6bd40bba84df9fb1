package io.polylink.core.internal.wire;

/**
 * The kinds of control frame: a frame with {@link FrameHeader#FLAG_CONTROL}, on stack 0, whose
 * handler field carries the kind's {@link #code()} and whose endpoint field is 0. Each payload's
 * layout is described once, in the class each constant names.
 */
public enum ControlFrame {

    /**
     * Payload: an encoded descriptor table ({@link TableCodec}) the receiver keeps for this
     * connection, ahead of the first frame carrying a startpoint that refers to it.
     */
    TABLE,
    /** Payload: a {@link StackAnnouncement}, before the first frame on the stack it names. */
    STACK,
    /** Empty payload: forget every table received on this connection. */
    TABLE_RESET,
    /** Payload: a {@link Handshake} message for one transform's session on this connection. */
    HANDSHAKE,
    /** Payload: an {@link Acknowledgement} of what one flow delivered. */
    ACK,
    /**
     * Payload: a {@link StackRefusal}. The refused stack's frames are dropped unacknowledged; the
     * sender moves their flows and sends them again.
     */
    REFUSED;

    private static final ControlFrame[] VALUES = values();

    /** @return the kind with this code, or {@code null} for a code no kind has */
    public static ControlFrame of(int code) {
        return code >= 1 && code <= VALUES.length ? VALUES[code - 1] : null;
    }

    /** @return what the handler field of a frame of this kind holds */
    public int code() {
        return ordinal() + 1;
    }
}
