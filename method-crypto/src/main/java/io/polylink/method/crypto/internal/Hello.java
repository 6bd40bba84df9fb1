package io.polylink.method.crypto.internal;

import io.polylink.ContextId;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import javax.crypto.Mac;

/**
 * The handshake message each aead session sends its peer once, when it opens: an ephemeral X25519
 * public key, authenticated with the pre-shared key over the sender's and receiver's context ids.
 * Network byte order.
 *
 * <pre>
 *   0         1         2                                  34                                 66
 *   +---------+---------+----------------------------------+----------------------------------+
 *   | version |  suite  |    X25519 public key (32 bytes)  |    HMAC-SHA256 (32 bytes)         |
 *   +---------+---------+----------------------------------+----------------------------------+
 *
 *   HMAC key: derived from the pre-shared key ({@link PreSharedKey#helloKey()})
 *   HMAC input: "polylink aead v1 hello" | version | suite | sender id (16) | receiver id (16) | public key
 * </pre>
 *
 * <p>Binding both context ids means a key share cannot be passed off as coming from another
 * context, or be replayed towards one it was not meant for; a replayed share from an earlier
 * session is useless without the private key that died with that session.
 *
 * @param suite the cipher the sender uses
 * @param publicKey the sender's ephemeral X25519 public key, 32 bytes
 */
record Hello(Suite suite, byte[] publicKey) {

    static final int VERSION = 1;
    static final int VERSION_OFFSET = 0;
    static final int SUITE_OFFSET = 1;
    static final int KEY_OFFSET = 2;
    static final int MAC_OFFSET = KEY_OFFSET + X25519.KEY_LENGTH;
    static final int LENGTH = MAC_OFFSET + Hkdf.HASH_LENGTH;
    private static final byte[] LABEL = PreSharedKey.label("polylink aead v1 hello");

    /** @return the message from {@code sender} to {@code receiver}, ready to send */
    ByteBuffer write(byte[] helloKey, ContextId sender, ContextId receiver) {
        ByteBuffer out = ByteBuffer.allocate(LENGTH);
        out.put(VERSION_OFFSET, (byte) VERSION).put(SUITE_OFFSET, (byte) suite.code()).put(KEY_OFFSET, publicKey);
        out.put(MAC_OFFSET, mac(helloKey, VERSION, suite.code(), sender, receiver, publicKey));
        return out;
    }

    /**
     * Reads and verifies a message {@code sender} sent to {@code receiver}.
     *
     * @return the message, or never
     * @throws IllegalArgumentException saying what is wrong with it, for the caller to put in context
     */
    static Hello read(ByteBuffer message, byte[] helloKey, ContextId sender, ContextId receiver, Suite expected) {
        if (message.remaining() != LENGTH) {
            throw new IllegalArgumentException("it is " + message.remaining() + " bytes, not " + LENGTH);
        }
        int at = message.position();
        int version = message.get(at + VERSION_OFFSET) & 0xFF;
        int code = message.get(at + SUITE_OFFSET) & 0xFF;
        byte[] key = new byte[X25519.KEY_LENGTH];
        message.get(at + KEY_OFFSET, key);
        byte[] mac = new byte[Hkdf.HASH_LENGTH];
        message.get(at + MAC_OFFSET, mac);
        message.position(message.limit());
        // The MAC is checked first: nothing unauthenticated decides what is said back.
        if (!MessageDigest.isEqual(mac, mac(helloKey, version, code, sender, receiver, key))) {
            throw new IllegalArgumentException("it does not verify with this context's pre-shared key: the peer "
                + "holds another psk (or the message was forged or changed); configure the same psk in "
                + AeadSettings.PID + " on both");
        }
        if (version != VERSION) {
            throw new IllegalArgumentException("it is of version " + version + ", this context speaks " + VERSION);
        }
        Suite suite = Suite.of(code);
        if (suite != expected) {
            throw new IllegalArgumentException("the peer encrypts with " + (suite == null ? "cipher " + code : suite)
                + ", this context with " + expected + "; configure the same cipher in " + AeadSettings.PID + " on both");
        }
        return new Hello(suite, key);
    }

    private static byte[] mac(byte[] helloKey, int version, int suite, ContextId sender, ContextId receiver, byte[] key) {
        Mac mac = Hkdf.hmac(helloKey);
        mac.update(LABEL);
        mac.update((byte) version);
        mac.update((byte) suite);
        mac.update(X25519.bytes(sender));
        mac.update(X25519.bytes(receiver));
        mac.update(key);
        return mac.doFinal();
    }
}
