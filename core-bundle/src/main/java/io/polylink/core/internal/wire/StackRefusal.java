package io.polylink.core.internal.wire;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Layout of a {@link ControlFrame#REFUSED} payload: a stack the sender will not decode, and why.
 *
 * <pre>
 *   0       1
 *   +-------+-------+-------+--
 *   | stack |  why ...
 *   +-------+-------+-------+--
 * </pre>
 *
 * <ul>
 *   <li>stack: the id the refused stack's frames carry, as its {@link StackAnnouncement} said.
 *   <li>why: ASCII text for the log, the rest of the payload; a reader keeps at most
 *       {@link #MAX_WHY} bytes of it.
 * </ul>
 *
 * @param stackId the refused stack's id
 * @param why the reason, printable
 */
public record StackRefusal(int stackId, String why) {

    public static final int STACK_OFFSET = 0;
    public static final int WHY_OFFSET = 1;
    /** Bytes of the reason a reader keeps. */
    public static final int MAX_WHY = 512;

    /** @return the payload, ready to send */
    public ByteBuffer encode() {
        byte[] text = why.getBytes(StandardCharsets.US_ASCII);
        return ByteBuffer.allocate(WHY_OFFSET + text.length).put(STACK_OFFSET, (byte) stackId).put(WHY_OFFSET, text);
    }

    /**
     * Reads the payload from {@code payload}'s position.
     *
     * @throws io.polylink.MalformedMessageException if it has no stack id
     */
    public static StackRefusal read(ByteBuffer payload) {
        int stackId = WireInput.u8(payload, "stack refusal");
        byte[] text = new byte[Math.min(payload.remaining(), MAX_WHY)];
        payload.get(text);
        return new StackRefusal(stackId, WireInput.printable(text));
    }
}
