package io.polylink.core.internal.wire;

import io.polylink.MalformedMessageException;
import java.nio.ByteBuffer;

/**
 * Layout of the header in front of every frame the core gives a method. Network byte order.
 *
 * <pre>
 *   0       1       2       3       4               8               12              16
 *   +-------+-------+-------+-------+-------+-------+-------+-------+-------+-------+
 *   |ver|flg| stack |    handler    |   endpoint    |  [sequence]   |    length     |
 *   +-------+-------+-------+-------+-------+-------+-------+-------+-------+-------+
 * </pre>
 *
 * <ul>
 *   <li>ver (high 4 bits): {@link #VERSION}; a frame of another version is refused.
 *   <li>flg (low 4 bits): {@link #FLAG_CONTROL} marks a control frame, whose handler field is a
 *       {@link ControlFrame} code and endpoint is 0; {@link #FLAG_SEQUENCED} adds the sequence field,
 *       the RSR's number in its flow; {@link #FLAG_ACK_REQUEST} asks the receiver to acknowledge
 *       its flow now.
 *   <li>stack: the sender's id for the transforms applied to the payload and the flow its
 *       sequence numbers count in, 0 for no transform and no flow; announced per connection by a
 *       {@link ControlFrame#STACK} frame ({@link StackAnnouncement}) before first use.
 *   <li>handler: 0 to 65535. endpoint: the endpoint id in the receiving context.
 *   <li>length, always last: bytes of payload after the header, as transformed; bounded by the
 *       context. Transforms authenticate everything before it (the length is bound by their own
 *       output), so it can be written after they ran.
 * </ul>
 */
public final class FrameHeader {

    public static final int VERSION = 1;
    public static final int FLAG_CONTROL = 0x1;
    public static final int FLAG_SEQUENCED = 0x2;
    public static final int FLAG_ACK_REQUEST = 0x4;
    private static final int KNOWN_FLAGS = FLAG_CONTROL | FLAG_SEQUENCED | FLAG_ACK_REQUEST;

    public static final int VERSION_FLAGS_OFFSET = 0;
    public static final int STACK_OFFSET = 1;
    public static final int HANDLER_OFFSET = 2;
    public static final int ENDPOINT_OFFSET = 4;
    public static final int SEQUENCE_OFFSET = 8;
    /** Bytes of a header without the sequence field. */
    public static final int LENGTH = 12;
    /** Bytes of a header with it. */
    public static final int MAX_LENGTH = 16;

    private FrameHeader() {}

    /**
     * Writes a header up to its length field at {@code header}'s position 0 and leaves
     * {@code header} as the authenticated part (position 0, limit before the length).
     */
    public static void writeAuthenticated(ByteBuffer header, int flags, int stackId, int handler, int endpoint,
                                          int sequence) {
        header.clear();
        header.put(VERSION_FLAGS_OFFSET, (byte) (VERSION << 4 | flags));
        header.put(STACK_OFFSET, (byte) stackId);
        header.putShort(HANDLER_OFFSET, (short) handler);
        header.putInt(ENDPOINT_OFFSET, endpoint);
        if ((flags & FLAG_SEQUENCED) != 0) {
            header.putInt(SEQUENCE_OFFSET, sequence);
            header.limit(MAX_LENGTH - 4);
        } else {
            header.limit(LENGTH - 4);
        }
    }

    /** Completes a header from {@link #writeAuthenticated}: appends the length, readies it to send. */
    public static void writeLength(ByteBuffer header, int length) {
        int at = header.limit();
        header.limit(at + 4).putInt(at, length).position(0);
    }

    /**
     * Checks the header at {@code frame}'s position against the frame's size and the bound.
     *
     * @return the header length (where the payload starts, relative to the position)
     * @throws MalformedMessageException naming what is wrong
     */
    public static int validate(ByteBuffer frame, int maxPayload) {
        int at = frame.position();
        int size = frame.remaining();
        if (size < LENGTH) {
            throw new MalformedMessageException("frame of " + size + " bytes is shorter than the "
                + LENGTH + "-byte header");
        }
        int versionFlags = frame.get(at + VERSION_FLAGS_OFFSET) & 0xFF;
        if (versionFlags >>> 4 != VERSION) {
            throw new MalformedMessageException("frame of protocol version " + (versionFlags >>> 4)
                + ", this context speaks " + VERSION + "; upgrade the older side");
        }
        int flags = versionFlags & 0xF;
        if ((flags & ~KNOWN_FLAGS) != 0) {
            throw new MalformedMessageException("frame with unknown flags 0x"
                + Integer.toHexString(flags));
        }
        int headerLength = (flags & FLAG_SEQUENCED) != 0 ? MAX_LENGTH : LENGTH;
        if (size < headerLength) {
            throw new MalformedMessageException("frame of " + size + " bytes is shorter than its "
                + headerLength + "-byte header");
        }
        int length = frame.getInt(at + headerLength - 4);
        if (length < 0 || length > maxPayload) {
            throw new MalformedMessageException("frame declares a payload of " + length
                + " bytes, the bound is " + maxPayload);
        }
        if (length != size - headerLength) {
            throw new MalformedMessageException("frame declares a payload of " + length
                + " bytes but carries " + (size - headerLength));
        }
        return headerLength;
    }

    public static int flags(ByteBuffer frame) {
        return frame.get(frame.position() + VERSION_FLAGS_OFFSET) & 0xF;
    }

    public static int stackId(ByteBuffer frame) {
        return frame.get(frame.position() + STACK_OFFSET) & 0xFF;
    }

    public static int handler(ByteBuffer frame) {
        return frame.getShort(frame.position() + HANDLER_OFFSET) & 0xFFFF;
    }

    public static int endpoint(ByteBuffer frame) {
        return frame.getInt(frame.position() + ENDPOINT_OFFSET);
    }

    /** Only for a frame with {@link #FLAG_SEQUENCED}. */
    public static int sequence(ByteBuffer frame) {
        return frame.getInt(frame.position() + SEQUENCE_OFFSET);
    }
}
