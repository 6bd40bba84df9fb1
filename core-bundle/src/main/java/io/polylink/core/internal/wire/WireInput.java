package io.polylink.core.internal.wire;

import io.polylink.MalformedMessageException;
import java.nio.ByteBuffer;

/** Reading bytes a peer sent: every length checked against what is there, every quote made safe. */
public final class WireInput {

    private WireInput() {}

    /**
     * @return {@code in}, which has at least {@code bytes} left
     * @throws MalformedMessageException naming {@code what} if it has fewer
     */
    public static ByteBuffer need(ByteBuffer in, int bytes, String what) {
        if (in.remaining() < bytes) {
            throw new MalformedMessageException("truncated " + what + ": needs " + bytes
                + " bytes, " + in.remaining() + " left");
        }
        return in;
    }

    /** @return the next unsigned byte, named {@code what} if it is missing */
    public static int u8(ByteBuffer in, String what) {
        return need(in, 1, what).get() & 0xFF;
    }

    /** @return the next {@code length} bytes, named {@code what} if they are missing */
    public static byte[] bytes(ByteBuffer in, int length, String what) {
        byte[] out = new byte[length];
        need(in, length, what).get(out);
        return out;
    }

    /**
     * Renders bytes from a peer for an error message: printable ASCII as is, anything else (and
     * the backslash) as {@code \xNN}, so a peer can neither forge nor break log lines. The caller
     * bounds the length.
     */
    public static String printable(byte[] bytes) {
        StringBuilder out = new StringBuilder(bytes.length);
        for (byte b : bytes) {
            if (b >= 0x20 && b < 0x7f && b != '\\') {
                out.append((char) b);
            } else {
                out.append(String.format("\\x%02x", b & 0xFF));
            }
        }
        return out.toString();
    }
}
