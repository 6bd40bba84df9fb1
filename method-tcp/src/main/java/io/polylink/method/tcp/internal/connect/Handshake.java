package io.polylink.method.tcp.internal.connect;

import io.polylink.ContextId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The first bytes each way on a tcp connection, version 2. Network byte order.
 *
 * <pre>
 *   hello     := magic "PLNK" version:u8 (=2) kind:u8 (=1) flags:u8 from:16 to:16 class:i32
 *                heartbeatMs:u32 failureMs:u32 nonce:32                                 83 bytes, dialler first
 *   challenge := magic version kind:u8 (=3) from:16 nonce:32 proof:32                    86 bytes, acceptor with a key
 *   proof     := magic version kind:u8 (=4) proof:32                                     38 bytes, dialler with a key
 *   welcome   := magic version kind:u8 (=2) status:u8 from:16 heartbeatMs:u32 failureMs:u32    31 bytes, the answer
 * </pre>
 *
 * {@code flags} bit 0 says the dialler holds a pre-shared key. Without a key the acceptor answers
 * the hello with the welcome; with one, both sides prove they hold it first: the challenge carries
 * the acceptor's proof, the proof message the dialler's, each an HMAC under the key over its role's
 * label and the {@linkplain #transcript transcript} (the hello, the acceptor's id and its nonce),
 * so a proof is bound to both context ids, both nonces and everything the dialler asked for.
 * {@code class} tells connections to the same peer with different link parameters apart. The
 * dialler's {@code heartbeatMs} and {@code failureMs} are what it asks for; the welcome's are what
 * the acceptor set, within its own bounds ({@link io.polylink.method.tcp.internal.config.TcpSettings.Limits#agree}).
 * After an accepted welcome both sides send frames: {@code length:u32 frame}, where length 0 is
 * a heartbeat and length 0xFFFFFFFF a goodbye, the last thing a side that closes in order sends.
 */
final class Handshake {

    static final int VERSION = 2;
    /** Magic, version and kind: what a side reads first of the other's message. */
    static final int HEAD_LENGTH = 6;
    static final int HELLO_LENGTH = 83;
    static final int CHALLENGE_LENGTH = 86;
    static final int PROOF_LENGTH = 38;
    static final int WELCOME_LENGTH = 31;
    static final int NONCE_LENGTH = 32;
    static final int MAC_LENGTH = 32;
    static final int KIND_HELLO = 1;
    static final int KIND_WELCOME = 2;
    static final int KIND_CHALLENGE = 3;
    static final int KIND_PROOF = 4;
    private static final int FLAG_KEYED = 1;
    private static final byte[] MAGIC = "PLNK".getBytes(StandardCharsets.US_ASCII);

    /** The acceptor's answer. */
    enum Status {
        /** The connection is taken. */
        ACCEPTED,
        /** {@code to} is not this context. */
        WRONG_PEER,
        /** Both sides dial each other, and the acceptor's connection wins. */
        DUPLICATE,
        /** The dialler speaks another protocol version. */
        BAD_VERSION,
        /** The context the dialler claims to be has a live connection of this class here, or is this one. */
        IN_USE,
        /** The acceptor holds a key and the dialler does not. */
        KEY_REQUIRED,
        /** The dialler holds a key and the acceptor does not. */
        NO_KEY,
        /** The dialler's proof is not one made with the acceptor's key. */
        AUTH_FAILED,
        /** The dialler's address has as many connections or handshakes here as the acceptor allows. */
        BUSY;

        static Status of(int code) {
            return code < values().length ? values()[code] : null;
        }
    }

    /**
     * @param heartbeatMs unsigned
     * @param failureMs unsigned
     */
    record Hello(boolean keyed, ContextId from, ContextId to, int connectionClass, long heartbeatMs,
                 long failureMs) {}

    record Challenge(ContextId from, byte[] nonce, byte[] proof) {}

    /**
     * @param heartbeatMs unsigned; 0 unless accepted
     * @param failureMs unsigned; 0 unless accepted
     */
    record Welcome(Status status, ContextId from, long heartbeatMs, long failureMs) {}

    private Handshake() {}

    static ByteBuffer hello(boolean keyed, ContextId from, ContextId to, int connectionClass, int heartbeatMs,
                            int failureMs, byte[] nonce) {
        ByteBuffer out = head(HELLO_LENGTH, KIND_HELLO).put((byte) (keyed ? FLAG_KEYED : 0));
        put(out, from);
        put(out, to);
        return out.putInt(connectionClass).putInt(heartbeatMs).putInt(failureMs).put(nonce).flip();
    }

    static ByteBuffer challenge(ContextId from, byte[] nonce, byte[] proof) {
        ByteBuffer out = head(CHALLENGE_LENGTH, KIND_CHALLENGE);
        put(out, from);
        return out.put(nonce).put(proof).flip();
    }

    static ByteBuffer proof(byte[] proof) {
        return head(PROOF_LENGTH, KIND_PROOF).put(proof).flip();
    }

    static ByteBuffer welcome(Status status, ContextId from, int heartbeatMs, int failureMs) {
        ByteBuffer out = head(WELCOME_LENGTH, KIND_WELCOME).put((byte) status.ordinal());
        put(out, from);
        return out.putInt(heartbeatMs).putInt(failureMs).flip();
    }

    /**
     * @param hello the whole hello, position to limit; left as it was
     * @return what both proofs cover: the hello, then the acceptor's id and nonce
     */
    static ByteBuffer transcript(ByteBuffer hello, ContextId acceptor, byte[] acceptorNonce) {
        ByteBuffer out = ByteBuffer.allocate(HELLO_LENGTH + 16 + NONCE_LENGTH).put(hello.duplicate());
        put(out, acceptor);
        return out.put(acceptorNonce).flip();
    }

    private static ByteBuffer head(int length, int kind) {
        return ByteBuffer.allocate(length).put(MAGIC).put((byte) VERSION).put((byte) kind);
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

    /** @return the version a peer speaks, from the 5th byte of any of its handshake messages */
    static int version(ByteBuffer in, int at) {
        return in.get(at + 4) & 0xFF;
    }

    /** @return the kind of a message whose magic and version were checked, from its 6th byte */
    static int kind(ByteBuffer in, int at) {
        return in.get(at + 5) & 0xFF;
    }

    /** Reads a complete hello of this version whose magic was checked. @return null if not a hello */
    static Hello readHello(ByteBuffer in, int at) {
        if (kind(in, at) != KIND_HELLO) {
            return null;
        }
        return new Hello((in.get(at + 6) & FLAG_KEYED) != 0, id(in, at + 7), id(in, at + 23), in.getInt(at + 39),
            Integer.toUnsignedLong(in.getInt(at + 43)), Integer.toUnsignedLong(in.getInt(at + 47)));
    }

    /** Reads a complete challenge whose magic and version were checked. @return null if not a challenge */
    static Challenge readChallenge(ByteBuffer in, int at) {
        if (kind(in, at) != KIND_CHALLENGE) {
            return null;
        }
        return new Challenge(id(in, at + 6), bytes(in, at + 22, NONCE_LENGTH), bytes(in, at + 54, MAC_LENGTH));
    }

    /** Reads a complete proof message whose magic and version were checked. @return its proof, null if not one */
    static byte[] readProof(ByteBuffer in, int at) {
        return kind(in, at) == KIND_PROOF ? bytes(in, at + 6, MAC_LENGTH) : null;
    }

    /** Reads a complete welcome whose magic was checked. @return null if not a welcome */
    static Welcome readWelcome(ByteBuffer in, int at) {
        if (kind(in, at) != KIND_WELCOME) {
            return null;
        }
        Status status = Status.of(in.get(at + 6) & 0xFF);
        return status == null ? null : new Welcome(status, id(in, at + 7),
            Integer.toUnsignedLong(in.getInt(at + 23)), Integer.toUnsignedLong(in.getInt(at + 27)));
    }

    private static void put(ByteBuffer out, ContextId id) {
        out.putLong(id.high()).putLong(id.low());
    }

    private static ContextId id(ByteBuffer in, int at) {
        return new ContextId(in.getLong(at), in.getLong(at + 8));
    }

    private static byte[] bytes(ByteBuffer in, int at, int length) {
        byte[] out = new byte[length];
        in.get(at, out);
        return out;
    }

    private static String printable(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            out.append(b >= 0x20 && b < 0x7F ? String.valueOf((char) b) : String.format("\\x%02x", b & 0xFF));
        }
        return out.toString();
    }
}
