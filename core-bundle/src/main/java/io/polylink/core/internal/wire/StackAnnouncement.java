package io.polylink.core.internal.wire;

import io.polylink.Descriptor;
import io.polylink.MalformedMessageException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Layout of a {@link ControlFrame#STACK} payload: what a stack id stands for on one connection,
 * and where the announcer runs, sent once, before the first frame that carries the id and before
 * any handshake for the stack's transforms. Network byte order.
 *
 * <pre>
 *   0       1                               9               13
 *   +-------+-------+-------+-------+-------+-------+-------+-------+--...--+--
 *   | stack |            flow id            | first sequence|    origin     | transforms ...
 *   +-------+-------+-------+-------+-------+-------+-------+-------+--...--+--
 * </pre>
 *
 * <ul>
 *   <li>stack: 1 to 255, the id the announcer's frames on this stack carry in their header.
 *   <li>flow id: the announcer's id for the flow whose sequence numbers those frames carry.
 *   <li>first sequence: the flow's oldest unacknowledged sequence number, the first the receiver
 *       should expect unless it has delivered the flow further already.
 *   <li>origin: where the announcer runs ({@link Origin}, 2 to 98 bytes), so the receiver knows how
 *       near its peer is before it opens a transform session for the stack.
 *   <li>transforms: the transform names, {@code +}-joined in send order, empty for none; ASCII, the
 *       rest of the payload, at most {@link Descriptor#MAX_STACK_LENGTH} bytes.
 * </ul>
 *
 * @param stackId the id
 * @param flow the flow id
 * @param firstSequence the flow's oldest unacknowledged sequence number
 * @param origin where the announcer runs
 * @param transforms the transform names, {@code +}-joined
 */
public record StackAnnouncement(int stackId, long flow, int firstSequence, Origin origin, String transforms) {

    public static final int STACK_OFFSET = 0;
    public static final int FLOW_OFFSET = 1;
    public static final int FIRST_SEQUENCE_OFFSET = 9;
    public static final int ORIGIN_OFFSET = 13;

    /** @return the payload, ready to send */
    public ByteBuffer encode() {
        byte[] names = transforms.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer out = ByteBuffer.allocate(ORIGIN_OFFSET + origin.length() + names.length)
            .put(STACK_OFFSET, (byte) stackId)
            .putLong(FLOW_OFFSET, flow)
            .putInt(FIRST_SEQUENCE_OFFSET, firstSequence)
            .position(ORIGIN_OFFSET);
        origin.write(out);
        return out.put(names).flip();
    }

    /** @return the transform names in send order; empty for none */
    public List<String> names() {
        return transforms.isEmpty() ? List.of() : List.of(transforms.split("\\+", -1));
    }

    /**
     * Reads the payload from {@code payload}'s position to its limit.
     *
     * @throws MalformedMessageException if it is truncated, too long, or names an invalid transform
     */
    public static StackAnnouncement read(ByteBuffer payload) {
        int at = payload.position();
        WireInput.need(payload, ORIGIN_OFFSET, "stack announcement");
        Origin origin = Origin.read(payload.position(at + ORIGIN_OFFSET));
        // A stack longer than any descriptor could name is not one; the bound also caps what the
        // 255 stack slots of a connection hold.
        if (payload.remaining() > Descriptor.MAX_STACK_LENGTH) {
            throw new MalformedMessageException("stack announcement of " + payload.remaining() + " bytes exceeds "
                + Descriptor.MAX_STACK_LENGTH);
        }
        byte[] names = new byte[payload.remaining()];
        payload.get(names);
        StackAnnouncement announced = new StackAnnouncement(payload.get(at + STACK_OFFSET) & 0xFF,
            payload.getLong(at + FLOW_OFFSET), payload.getInt(at + FIRST_SEQUENCE_OFFSET), origin,
            new String(names, StandardCharsets.US_ASCII));
        for (String n : announced.names()) {
            if (!Descriptor.validName(n)) {
                throw new MalformedMessageException("stack announcement '" + WireInput.printable(names)
                    + "' names an invalid transform");
            }
        }
        return announced;
    }
}
