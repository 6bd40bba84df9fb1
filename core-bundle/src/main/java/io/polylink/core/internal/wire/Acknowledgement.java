package io.polylink.core.internal.wire;

import java.nio.ByteBuffer;

/**
 * Layout of an {@link ControlFrame#ACK} payload: how far one flow was delivered. Network byte
 * order.
 *
 * <pre>
 *   0                               8               12
 *   +-------+-------+-------+-------+-------+-------+
 *   |            flow id            |   sequence    |
 *   +-------+-------+-------+-------+-------+-------+
 * </pre>
 *
 * <ul>
 *   <li>flow id: the id the flow's sender gave it in its {@link StackAnnouncement}.
 *   <li>sequence: the last sequence number of the flow delivered at the receiver; the sender lets
 *       go of its copies up to it.
 * </ul>
 *
 * An acknowledgement is the one frame a method may hand the core on any thread
 * ({@link io.polylink.spi.FrameReceiver#offerAside}): {@link #isAcknowledgement} recognises it.
 */
public final class Acknowledgement {

    public static final int FLOW_OFFSET = 0;
    public static final int SEQUENCE_OFFSET = 8;
    /** Bytes of the payload. */
    public static final int LENGTH = 12;

    private Acknowledgement() {}

    /**
     * Writes a payload into {@code payload}, whose capacity is {@link #LENGTH}, from its start.
     *
     * @return {@code payload}, ready to send
     */
    public static ByteBuffer write(ByteBuffer payload, long flow, int sequence) {
        return payload.clear().putLong(FLOW_OFFSET, flow).putInt(SEQUENCE_OFFSET, sequence).limit(LENGTH);
    }

    /**
     * @param payload positioned at an acknowledgement's payload
     * @throws io.polylink.MalformedMessageException if it is truncated
     */
    public static void check(ByteBuffer payload) {
        WireInput.need(payload, LENGTH, "acknowledgement");
    }

    /** @return the flow id of the payload at {@code payload}'s position */
    public static long flow(ByteBuffer payload) {
        return payload.getLong(payload.position() + FLOW_OFFSET);
    }

    /** @return the sequence number of the payload at {@code payload}'s position */
    public static int sequence(ByteBuffer payload) {
        return payload.getInt(payload.position() + SEQUENCE_OFFSET);
    }

    /**
     * @return whether the frame at {@code frame}'s position, header and all, is a well-formed
     *     acknowledgement on stack 0
     */
    public static boolean isAcknowledgement(ByteBuffer frame) {
        int at = frame.position();
        return frame.remaining() == FrameHeader.LENGTH + LENGTH
            && frame.get(at + FrameHeader.VERSION_FLAGS_OFFSET)
                == (byte) (FrameHeader.VERSION << 4 | FrameHeader.FLAG_CONTROL)
            && frame.get(at + FrameHeader.STACK_OFFSET) == 0
            && frame.getShort(at + FrameHeader.HANDLER_OFFSET) == ControlFrame.ACK.code()
            && frame.getInt(at + FrameHeader.LENGTH - 4) == LENGTH;
    }

    /** @return the flow id of a frame {@link #isAcknowledgement} accepted */
    public static long flowOfFrame(ByteBuffer frame) {
        return frame.getLong(frame.position() + FrameHeader.LENGTH + FLOW_OFFSET);
    }

    /** @return the sequence number of a frame {@link #isAcknowledgement} accepted */
    public static int sequenceOfFrame(ByteBuffer frame) {
        return frame.getInt(frame.position() + FrameHeader.LENGTH + SEQUENCE_OFFSET);
    }
}
