package io.polylink.core.internal.wire;

import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.DescriptorTable;
import io.polylink.core.internal.wire.StartpointCodec.TargetRef;
import io.polylink.spi.HostIdentity;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Builds frames and fuzz inputs by hand, from {@link FrameHeader}'s layout, so seeds and tests
 * do not go through the encoder they are meant to check.
 *
 * <p>A frame-sequence input is one placement byte (see the channel tests' {@code FrameHarness}) followed
 * by records {@code length:u16 frame}; a last record shorter than its length keeps what is there.
 */
public final class FuzzFrames {

    /** Context id written into hand-made startpoints; any value works, selection just refuses it. */
    public static final ContextId FAR_CONTEXT = new ContextId(0x0123456789abcdefL, 0xfedcba9876543210L);

    /** OutboundFlow id of hand-made stack announcements. */
    public static final long FLOW = 0x5eed_f100L;

    /** Where the far context of the seeds says it runs. */
    public static final Origin FAR_ORIGIN = new Origin(HostIdentity.named("fuzz-far-host"), "fuzz-lab");

    /** Tables the seeds use; fixed, so their ids (and so the seeds) never change. */
    public static final EncodedTable LOCAL_TABLE = EncodedTable.of(DescriptorTable.of(List.of(
        new Descriptor("local", new byte[0]))), Origin.UNKNOWN);
    public static final EncodedTable TCP_TABLE = EncodedTable.of(DescriptorTable.of(List.of(
        new Descriptor("local", new byte[0]),
        new Descriptor("rle/tcp", new byte[] {127, 0, 0, 1, 0x1b, 0x58}),
        new Descriptor("tcp", new byte[] {10, 0, 0, 7, 0x1b, 0x58}))), FAR_ORIGIN);

    /** Handler script operations, read by the channel tests' {@code FrameHarness} script handler. */
    public static final int OP_BYTE = 0, OP_BOOLEAN = 1, OP_SHORT = 2, OP_INT = 3, OP_LONG = 4, OP_FLOAT = 5,
        OP_DOUBLE = 6, OP_BYTES = 7, OP_STRING = 8, OP_STARTPOINT = 9, OP_RAW = 10;

    private FuzzFrames() {}

    public static byte[] frame(int flags, int stackId, int handler, int endpoint, byte[] payload) {
        return frame(flags, stackId, handler, endpoint, 1, payload);
    }

    public static byte[] frame(int flags, int stackId, int handler, int endpoint, int sequence, byte[] payload) {
        boolean sequenced = (flags & FrameHeader.FLAG_SEQUENCED) != 0;
        int headerLength = sequenced ? FrameHeader.MAX_LENGTH : FrameHeader.LENGTH;
        ByteBuffer out = ByteBuffer.allocate(headerLength + payload.length);
        out.put(FrameHeader.VERSION_FLAGS_OFFSET, (byte) (FrameHeader.VERSION << 4 | flags))
            .put(FrameHeader.STACK_OFFSET, (byte) stackId)
            .putShort(FrameHeader.HANDLER_OFFSET, (short) handler)
            .putInt(FrameHeader.ENDPOINT_OFFSET, endpoint);
        if (sequenced) {
            out.putInt(FrameHeader.SEQUENCE_OFFSET, sequence);
        }
        out.putInt(headerLength - 4, payload.length).put(headerLength, payload);
        return out.array();
    }

    public static byte[] data(int endpoint, int handler, byte[] payload) {
        return frame(0, 0, handler, endpoint, payload);
    }

    public static byte[] control(ControlFrame control, byte[] payload) {
        return frame(FrameHeader.FLAG_CONTROL, 0, control.code(), 0, payload);
    }

    /** An announcement of a stack of {@link #FLOW}, from a peer that says it runs at {@link #FAR_ORIGIN}. */
    public static byte[] stackAnnouncement(int stackId, String transforms) {
        byte[] name = transforms.getBytes(StandardCharsets.US_ASCII);
        byte[] site = FAR_ORIGIN.site().getBytes(StandardCharsets.US_ASCII);
        byte[] host = FAR_ORIGIN.host().bytes();
        return control(ControlFrame.STACK, ByteBuffer.allocate(1 + 8 + 4 + 1 + host.length + 1 + site.length
            + name.length).put((byte) stackId).putLong(FLOW).putInt(1)
            .put((byte) host.length).put(host).put((byte) site.length).put(site).put(name).array());
    }

    /** A startpoint in its in-message form, as a message buffer's {@code putStartpoint} writes it. */
    public static byte[] reference(int endpoint, EncodedTable... tables) {
        StartpointCodec.TargetRef[] targets = new StartpointCodec.TargetRef[tables.length];
        for (int i = 0; i < tables.length; i++) {
            targets[i] = new StartpointCodec.TargetRef(FAR_CONTEXT, endpoint + i, tables[i]);
        }
        ByteBuffer out = ByteBuffer.allocate(StartpointCodec.referenceLength(targets.length));
        StartpointCodec.writeReference(out, 0, targets);
        return out.array();
    }

    /** The bytes behind a startpoint's text form (what follows the prefix, base64-decoded). */
    public static byte[] textBytes(int endpoint, EncodedTable... tables) {
        StartpointCodec.TargetRef[] targets = new StartpointCodec.TargetRef[tables.length];
        for (int i = 0; i < tables.length; i++) {
            targets[i] = new StartpointCodec.TargetRef(FAR_CONTEXT, endpoint + i, tables[i]);
        }
        String text = StartpointCodec.toText(targets);
        return Base64.getUrlDecoder().decode(text.substring(StartpointCodec.TEXT_PREFIX.length()));
    }

    /** Writes a handler script: each item is an operation followed by what it reads. */
    public static final class Script {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        public Script op(int op, byte[] operand) {
            out.write(op);
            out.writeBytes(operand);
            return this;
        }

        public Script integer(int value) {
            return op(OP_INT, ByteBuffer.allocate(4).putInt(value).array());
        }

        public Script longValue(long value) {
            return op(OP_LONG, ByteBuffer.allocate(8).putLong(value).array());
        }

        public Script string(String value) {
            return op(OP_STRING, lengthPrefixed(value.getBytes(StandardCharsets.UTF_8)));
        }

        public Script bytes(byte[] value) {
            return op(OP_BYTES, lengthPrefixed(value));
        }

        public Script startpoint(byte[] reference) {
            return op(OP_STARTPOINT, reference);
        }

        public Script raw(byte[] value) {
            out.write(OP_RAW);
            out.write(value.length);
            out.writeBytes(value);
            return this;
        }

        public byte[] toBytes() {
            return out.toByteArray();
        }

        private static byte[] lengthPrefixed(byte[] value) {
            return ByteBuffer.allocate(4 + value.length).putInt(value.length).put(value).array();
        }
    }

    /** Joins frames into a frame-sequence input. */
    public static byte[] sequence(int placement, byte[]... frames) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(placement);
        for (byte[] frame : frames) {
            out.write(frame.length >>> 8);
            out.write(frame.length);
            out.writeBytes(frame);
        }
        return out.toByteArray();
    }

    /** Splits a frame-sequence input; never fails, whatever the bytes. */
    public static List<byte[]> records(byte[] input) {
        List<byte[]> frames = new ArrayList<>();
        int at = 1;
        while (at + 2 <= input.length) {
            int length = (input[at] & 0xFF) << 8 | input[at + 1] & 0xFF;
            at += 2;
            int taken = Math.min(length, input.length - at);
            byte[] frame = new byte[taken];
            System.arraycopy(input, at, frame, 0, taken);
            frames.add(frame);
            at += taken;
        }
        return frames;
    }
}
