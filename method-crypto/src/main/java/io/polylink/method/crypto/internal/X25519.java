package io.polylink.method.crypto.internal;

import io.polylink.ContextId;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import javax.crypto.KeyAgreement;

/** Ephemeral X25519 key agreement (RFC 7748) through the JDK, with keys as 32 raw bytes on the wire. */
final class X25519 {

    static final int KEY_LENGTH = 32;
    private static final String ALGORITHM = "X25519";
    /** The fixed DER prefix of an X25519 SubjectPublicKeyInfo; the raw key follows it. */
    private static final byte[] SPKI_PREFIX = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00};

    private X25519() {}

    /** @return a fresh key pair */
    static KeyPair generate() {
        try {
            return KeyPairGenerator.getInstance(ALGORITHM).generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK offers no X25519, which Java 11 and later have: " + e, e);
        }
    }

    /** @return the raw 32-byte public key */
    static byte[] raw(PublicKey key) {
        byte[] encoded = key.getEncoded();
        if (encoded.length != SPKI_PREFIX.length + KEY_LENGTH
            || !Arrays.equals(encoded, 0, SPKI_PREFIX.length, SPKI_PREFIX, 0, SPKI_PREFIX.length)) {
            throw new IllegalStateException("unexpected X25519 public key encoding of " + encoded.length + " bytes");
        }
        return Arrays.copyOfRange(encoded, SPKI_PREFIX.length, encoded.length);
    }

    /**
     * @param mine this side's private key
     * @param theirs the peer's raw public key
     * @return the 32-byte shared secret
     * @throws IllegalArgumentException if the peer's key is unusable, e.g. of small order
     */
    static byte[] agree(PrivateKey mine, byte[] theirs) {
        byte[] secret;
        try {
            byte[] encoded = Arrays.copyOf(SPKI_PREFIX, SPKI_PREFIX.length + KEY_LENGTH);
            System.arraycopy(theirs, 0, encoded, SPKI_PREFIX.length, KEY_LENGTH);
            PublicKey key = KeyFactory.getInstance(ALGORITHM).generatePublic(new X509EncodedKeySpec(encoded));
            KeyAgreement agreement = KeyAgreement.getInstance(ALGORITHM);
            agreement.init(mine);
            agreement.doPhase(key, true);
            secret = agreement.generateSecret();
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new IllegalArgumentException("its X25519 public key is unusable (" + e + ")", e);
        }
        int bits = 0;
        for (byte b : secret) {
            bits |= b;
        }
        if (bits == 0) {
            // A small-order point yields an all-zero secret that anyone can compute.
            throw new IllegalArgumentException("its X25519 public key is of small order");
        }
        return secret;
    }

    /** @return the 16 bytes of a context id, high then low, big-endian */
    static byte[] bytes(ContextId id) {
        return ByteBuffer.allocate(ContextId.BYTES).putLong(id.high()).putLong(id.low()).array();
    }
}
