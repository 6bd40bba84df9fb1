package io.polylink.method.tcp.internal.connect;

import io.polylink.ContextId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The first bytes each way on a tcp connection. Network byte order.
 *
 * <pre>
 *   hello   := magic "PLNK" version:u8 kind:u8 (=1) from:16 to:16 class:i32
 *              heartbeatMs:i32 failureMs:i32                                      50 bytes, dialer first
 *   welcome := magic "PLNK" version:u8 kind:u8 (=2) status:u8 from:16             23 bytes, the answer
 * </pre>
 *
 * {@code class} tells connections to the same peer with different link parameters apart; the
 * acceptor heartbeats at the smaller interval and waits out the larger failure timeout of the two
 * sides, so neither declares a live peer dead. After
 * an accepted welcome both sides send frames: {@code length:u32 frame}, where length 0 is a
 * heartbeat and length 0xFFFFFFFF a goodbye, the last thing a side that closes in order sends.
 */
final class Handshake {

    static final int VERSION = 1;
    static final int HELLO_LENGTH = 50;
    static final int WELCOME_LENGTH = 23;
    private static final byte[] MAGIC = "PLNK".getBytes(StandardCharsets.US_ASCII);
    private static final int KIND_HELLO = 1;
    private static final int KIND_WELCOME = 2;

    /** The acceptor's answer. */
    enum Status {
        ACCEPTED, WRONG_PEER, DUPLICATE, BAD_VERSION;

        static Status of(int code) {
            return code < values().length ? values()[code] : null;
        }
    }

    record Hello(ContextId from, ContextId to, int connectionClass, int heartbeatMs, int failureMs) {}

    record Welcome(int version, Status status, ContextId from) {}

    private Handshake() {}

    static ByteBuffer hello(ContextId from, ContextId to, int connectionClass, int heartbeatMs, int failureMs) {
        ByteBuffer out = ByteBuffer.allocate(HELLO_LENGTH).put(MAGIC).put((byte) VERSION).put((byte) KIND_HELLO);
        put(out, from);
        put(out, to);
        return out.putInt(connectionClass).putInt(heartbeatMs).putInt(failureMs).flip();
    }

    static ByteBuffer welcome(Status status, ContextId from) {
        ByteBuffer out = ByteBuffer.allocate(WELCOME_LENGTH).put(MAGIC).put((byte) VERSION)
            .put((byte) KIND_WELCOME).put((byte) status.ordinal());
        put(out, from);
        return out.flip();
    }

    /**
     * Checks the first 4 bytes as soon as they arrive, so a stranger (an HTTP client, a port
     * scanner) is turned away at once.
     *
     * @return {@code null} if they are the magic, else why not
     */
    static String checkMagic(ByteBuffer in, int at) {
        for (int i = 0; i < MAGIC.length; i++) {
            if (in.get(at + i) != MAGIC[i]) {
                byte[] seen = new byte[MAGIC.length];
                in.get(at, seen);
                return "not a Polylink peer: it began with '" + printable(seen) + "'";
            }
        }
        return null;
    }

    /** @return the version a peer speaks, from the 5th byte of its hello or welcome */
    static int version(ByteBuffer in, int at) {
        return in.get(at + 4) & 0xFF;
    }

    /** Reads a complete hello of this version whose magic was checked. @return null if not a hello */
    static Hello readHello(ByteBuffer in, int at) {
        if ((in.get(at + 5) & 0xFF) != KIND_HELLO) {
            return null;
        }
        return new Hello(id(in, at + 6), id(in, at + 22), in.getInt(at + 38), in.getInt(at + 42),
            in.getInt(at + 46));
    }

    /** Reads a complete welcome whose magic was checked. @return null if not a welcome */
    static Welcome readWelcome(ByteBuffer in, int at) {
        if ((in.get(at + 5) & 0xFF) != KIND_WELCOME) {
            return null;
        }
        Status status = Status.of(in.get(at + 6) & 0xFF);
        return status == null ? null : new Welcome(version(in, at), status, id(in, at + 7));
    }

    private static void put(ByteBuffer out, ContextId id) {
        out.putLong(id.high()).putLong(id.low());
    }

    private static ContextId id(ByteBuffer in, int at) {
        return new ContextId(in.getLong(at), in.getLong(at + 8));
    }

    private static String printable(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            out.append(b >= 0x20 && b < 0x7F ? String.valueOf((char) b) : String.format("\\x%02x", b & 0xFF));
        }
        return out.toString();
    }
}
