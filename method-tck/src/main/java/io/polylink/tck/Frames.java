package io.polylink.tck;

import java.nio.ByteBuffer;

/**
 * The kit's frames: a header {@code [stream:i32][seq:i32][length:i32]} and a payload whose every
 * byte follows from the three, so a receiver can tell a whole frame from a cut, joined or changed
 * one without keeping what was sent.
 */
final class Frames {

    /** Bytes of the header, the smallest frame. */
    static final int HEADER = 12;

    /** Which frame a received one is. */
    record Id(int stream, int seq) {}

    private Frames() {}

    /** @return the header of frame {@code seq} of {@code stream}, {@code length} bytes in all */
    static ByteBuffer header(int stream, int seq, int length) {
        return ByteBuffer.allocate(HEADER).putInt(stream).putInt(seq).putInt(length).flip();
    }

    /** @return the payload of that frame, {@code length - HEADER} bytes, in a direct buffer or on the heap */
    static ByteBuffer payload(int stream, int seq, int length, boolean direct) {
        int size = length - HEADER;
        ByteBuffer payload = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
        for (int i = 0; i < size; i++) {
            payload.put(i, expected(stream, seq, i));
        }
        return payload;
    }

    private static byte expected(int stream, int seq, int i) {
        return (byte) (i * 31 + seq * 7 + stream * 13);
    }

    /**
     * @return which frame {@code frame} is
     * @throws AssertionError naming what is wrong if it is not a whole frame of the kit's
     */
    static Id check(byte[] frame) {
        if (frame.length < HEADER) {
            throw new AssertionError("a frame of " + frame.length + " bytes arrived, shorter than any sent ("
                + HEADER + "): a cut frame");
        }
        ByteBuffer b = ByteBuffer.wrap(frame);
        int stream = b.getInt();
        int seq = b.getInt();
        int length = b.getInt();
        if (length != frame.length) {
            throw new AssertionError("frame " + seq + " of stream " + stream + " was sent with " + length
                + " bytes and arrived with " + frame.length + ": frames were cut or joined");
        }
        for (int i = 0; i < length - HEADER; i++) {
            if (frame[HEADER + i] != expected(stream, seq, i)) {
                throw new AssertionError("frame " + seq + " of stream " + stream + " (" + length
                    + " bytes) differs at payload byte " + i);
            }
        }
        return new Id(stream, seq);
    }
}
