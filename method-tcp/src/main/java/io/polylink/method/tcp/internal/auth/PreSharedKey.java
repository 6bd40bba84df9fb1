package io.polylink.method.tcp.internal.auth;

import io.polylink.spi.InvalidSettingException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret every node of a deployment shares, configured as the aead transform's is (base64, at
 * least 32 bytes, in {@code psk} or in a file named by {@code pskFile}), and the handshake key
 * drawn from it with HKDF-SHA256 (RFC 5869) under a label of the tcp method's own: a node may give
 * aead and tcp the same secret, and neither key tells anything of the other. Its bytes never
 * appear in a message, a log line or {@link #toString()}.
 *
 * <p>Thread-safe: each proof takes a fresh {@link Mac}.
 */
public final class PreSharedKey {

    /** Fewer bytes than this would make the weakest key in the system the configured one. */
    static final int MIN_LENGTH = 32;
    private static final String HMAC = "HmacSHA256";
    private static final byte[] EXTRACT_SALT = label("polylink tcp v2 psk");
    private static final byte[] HANDSHAKE_INFO = label("polylink tcp v2 handshake");

    /** Who proves: each side's proof carries its own label, so one side's proof is never the other's. */
    public enum Role {
        ACCEPTOR("polylink tcp v2 acceptor proof"),
        DIALLER("polylink tcp v2 dialler proof");

        private final byte[] label;

        Role(String label) {
            this.label = label(label);
        }
    }

    private final SecretKeySpec handshakeKey;
    private final int length;

    private PreSharedKey(byte[] secret) {
        this.length = secret.length;
        byte[] prk = hmac(new SecretKeySpec(EXTRACT_SALT, HMAC), secret);
        // HKDF-Expand for one block: T(1) = HMAC(PRK, info | 0x01)
        byte[] info = Arrays.copyOf(HANDSHAKE_INFO, HANDSHAKE_INFO.length + 1);
        info[info.length - 1] = 1;
        byte[] key = hmac(new SecretKeySpec(prk, HMAC), info);
        this.handshakeKey = new SecretKeySpec(key, HMAC);
        Arrays.fill(prk, (byte) 0);
        Arrays.fill(key, (byte) 0);
        Arrays.fill(secret, (byte) 0);
    }

    /**
     * @param component the configuration PID, for errors
     * @param psk the key in base64 (standard or URL-safe alphabet, whitespace ignored); empty for none
     * @param pskFile a file holding the key in base64; empty for none
     * @return the key, or {@code null} if neither names one
     * @throws InvalidSettingException naming the key that is wrong, never showing the secret
     */
    public static PreSharedKey read(String component, String psk, String pskFile) {
        if (!psk.isBlank() && !pskFile.isBlank()) {
            throw new InvalidSettingException(component, "pskFile", pskFile, "allowed beside psk; keep one of the two");
        }
        if (!psk.isBlank()) {
            return of(component, "psk", decode(component, "psk", psk));
        }
        if (!pskFile.isBlank()) {
            String text;
            try {
                text = Files.readString(Path.of(pskFile), StandardCharsets.US_ASCII);
            } catch (IOException | RuntimeException e) {
                throw new InvalidSettingException(component, "pskFile", pskFile, "a readable file (" + e + ")");
            }
            return of(component, "pskFile", decode(component, "pskFile", text));
        }
        return null;
    }

    private static PreSharedKey of(String component, String key, byte[] secret) {
        if (secret.length < MIN_LENGTH) {
            int got = secret.length;
            Arrays.fill(secret, (byte) 0);
            throw new InvalidSettingException(component, key, "(a key of " + got + " bytes, not shown)",
                "at least " + MIN_LENGTH + " random bytes in base64, e.g. from 'head -c 32 /dev/urandom | base64'");
        }
        return new PreSharedKey(secret);
    }

    private static byte[] decode(String component, String key, String text) {
        String compact = text.replaceAll("\\s+", "");
        try {
            return compact.indexOf('-') >= 0 || compact.indexOf('_') >= 0
                ? Base64.getUrlDecoder().decode(compact) : Base64.getDecoder().decode(compact);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(component, key, "(not shown)",
                "base64; write the key's bytes in base64, e.g. from 'head -c 32 /dev/urandom | base64'");
        }
    }

    /**
     * @param role who proves
     * @param transcript the handshake so far, position to limit; left as it was
     * @return HMAC-SHA256 under the handshake key of the role's label and the transcript
     */
    public byte[] proof(Role role, ByteBuffer transcript) {
        Mac mac = mac(handshakeKey);
        mac.update(role.label);
        mac.update(transcript.duplicate());
        return mac.doFinal();
    }

    /**
     * @param role who claims to have proved
     * @param transcript the handshake so far, position to limit; left as it was
     * @param claimed the proof the other side sent
     * @return whether it is the proof of {@code role}, compared in constant time
     */
    public boolean verify(Role role, ByteBuffer transcript, byte[] claimed) {
        return MessageDigest.isEqual(proof(role, transcript), claimed);
    }

    private static byte[] hmac(SecretKeySpec key, byte[] data) {
        return mac(key).doFinal(data);
    }

    private static Mac mac(SecretKeySpec key) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK offers no " + HMAC + ", which every Java SE has: " + e, e);
        }
    }

    private static byte[] label(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        return "pre-shared key of " + length + " bytes";
    }
}
