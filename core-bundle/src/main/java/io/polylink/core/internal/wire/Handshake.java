package io.polylink.core.internal.wire;

import java.nio.ByteBuffer;

/**
 * Layout of a {@link ControlFrame#HANDSHAKE} payload: a message from one transform's session to
 * its peer session on the same connection, such as a key share. It travels untransformed.
 *
 * <pre>
 *   0       1               1 + n
 *   +-------+-------+--...--+-------+--
 *   |   n   | transform     | message ...
 *   +-------+-------+--...--+-------+--
 * </pre>
 *
 * <ul>
 *   <li>n: bytes of the transform's name.
 *   <li>transform: the name of the transform whose session the message is for, ASCII.
 *   <li>message: the rest of the payload, at most {@link #MAX_MESSAGE} bytes, for the session.
 * </ul>
 */
public final class Handshake {

    public static final int NAME_LENGTH_OFFSET = 0;
    public static final int NAME_OFFSET = 1;
    /** Bytes a session may send in one handshake message. */
    public static final int MAX_MESSAGE = 1024;

    private Handshake() {}

    /**
     * @param transform the transform's name, ASCII
     * @param message at most {@link #MAX_MESSAGE} bytes, consumed
     * @return the payload, ready to send
     * @throws IllegalArgumentException if the message is longer
     */
    public static ByteBuffer encode(byte[] transform, ByteBuffer message) {
        if (message.remaining() > MAX_MESSAGE) {
            throw new IllegalArgumentException("handshake message of " + message.remaining()
                + " bytes exceeds " + MAX_MESSAGE);
        }
        return ByteBuffer.allocate(NAME_OFFSET + transform.length + message.remaining())
            .put((byte) transform.length).put(transform).put(message).flip();
    }

    /**
     * Reads the transform's name and leaves {@code payload} at the message.
     *
     * @return the name as sent, unchecked
     * @throws io.polylink.MalformedMessageException if the payload is truncated
     */
    public static byte[] readTransform(ByteBuffer payload) {
        int length = WireInput.u8(payload, "handshake transform name length");
        return WireInput.bytes(payload, length, "handshake transform name");
    }
}
