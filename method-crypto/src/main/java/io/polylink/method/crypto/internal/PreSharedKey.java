package io.polylink.method.crypto.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;

/**
 * The secret every context of a deployment shares, and the two keys derived from it: one that
 * authenticates handshakes, one mixed into every session's keys. Its bytes never appear in a
 * message, a log line or {@link #toString()}.
 */
final class PreSharedKey {

    /** Fewer bytes than this would make the weakest key in the system the configured one. */
    static final int MIN_LENGTH = 32;
    private static final byte[] EXTRACT_SALT = label("polylink aead v1 psk");
    private static final byte[] HELLO_LABEL = label("polylink aead v1 hello mac");
    private static final byte[] SESSION_LABEL = label("polylink aead v1 session salt");

    private final byte[] helloKey;
    private final byte[] sessionSalt;
    private final int length;

    private PreSharedKey(byte[] secret) {
        if (secret.length < MIN_LENGTH) {
            int got = secret.length;
            Arrays.fill(secret, (byte) 0);
            throw new IllegalArgumentException("the aead pre-shared key has " + got + " bytes; it needs at least "
                + MIN_LENGTH + " random bytes, e.g. from 'head -c 32 /dev/urandom | base64'");
        }
        byte[] prk = Hkdf.extract(EXTRACT_SALT, secret);
        this.length = secret.length;
        this.helloKey = Hkdf.expand(prk, HELLO_LABEL, Hkdf.HASH_LENGTH);
        this.sessionSalt = Hkdf.expand(prk, SESSION_LABEL, Hkdf.HASH_LENGTH);
        Arrays.fill(prk, (byte) 0);
        Arrays.fill(secret, (byte) 0);
    }

    /**
     * @param base64 the key in base64 (standard or URL-safe alphabet, whitespace ignored)
     * @throws IllegalArgumentException if it is not base64 or too short; the message omits the key
     */
    static PreSharedKey fromBase64(String base64) {
        return new PreSharedKey(decode(base64, "the configured psk"));
    }

    /**
     * @param file a file holding the key in base64
     * @throws IllegalArgumentException if the file cannot be read, is not base64 or is too short
     */
    static PreSharedKey fromFile(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("cannot read the aead pskFile " + file + ": " + e, e);
        }
        return new PreSharedKey(decode(text, "pskFile " + file));
    }

    private static byte[] decode(String text, String where) {
        String compact = text.replaceAll("\\s+", "");
        try {
            return compact.indexOf('-') >= 0 || compact.indexOf('_') >= 0
                ? Base64.getUrlDecoder().decode(compact) : Base64.getDecoder().decode(compact);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + " is not base64; write the key's bytes in base64, "
                + "e.g. from 'head -c 32 /dev/urandom | base64'");
        }
    }

    /** @return the key that authenticates handshake messages */
    byte[] helloKey() {
        return helloKey;
    }

    /** @return the salt mixed into every session's key derivation */
    byte[] sessionSalt() {
        return sessionSalt;
    }

    static byte[] label(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        return "pre-shared key of " + length + " bytes";
    }
}
