package io.polylink.method.crypto.internal;

import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import java.util.Locale;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;

/**
 * The AEAD ciphers the transform offers: 256-bit keys, 96-bit nonces, 128-bit tags. Both ends of a
 * connection must use the same one; the handshake says which.
 */
enum Suite {
    /** AES-256 in Galois/Counter Mode: the default, fastest where the CPU has AES instructions. */
    AES_256_GCM(1, "aes-256-gcm", "AES/GCM/NoPadding", "AES"),
    /** ChaCha20 with Poly1305: for CPUs without AES instructions. */
    CHACHA20_POLY1305(2, "chacha20-poly1305", "ChaCha20-Poly1305", "ChaCha20");

    static final int KEY_LENGTH = 32;
    static final int NONCE_LENGTH = 12;
    static final int TAG_LENGTH = 16;

    private final int code;
    private final String text;
    private final String transformation;
    private final String keyAlgorithm;

    Suite(int code, String text, String transformation, String keyAlgorithm) {
        this.code = code;
        this.text = text;
        this.transformation = transformation;
        this.keyAlgorithm = keyAlgorithm;
    }

    /** @return the byte naming this suite in the handshake */
    int code() {
        return code;
    }

    /** @return the JCE transformation, as both Conscrypt and the JDK know it */
    String transformation() {
        return transformation;
    }

    String keyAlgorithm() {
        return keyAlgorithm;
    }

    /** @return the cipher parameters for one nonce */
    AlgorithmParameterSpec parameters(byte[] nonce) {
        return this == AES_256_GCM ? new GCMParameterSpec(TAG_LENGTH * 8, nonce) : new IvParameterSpec(nonce);
    }

    /** @return the suite with this handshake code, or {@code null} */
    static Suite of(int code) {
        for (Suite s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        return null;
    }

    /** @throws IllegalArgumentException naming the accepted values */
    static Suite parse(String text) {
        String wanted = text.strip().toLowerCase(Locale.ROOT);
        for (Suite s : values()) {
            if (s.text.equals(wanted)) {
                return s;
            }
        }
        throw new IllegalArgumentException("aead cipher '" + text + "' is not one of "
            + Arrays.stream(values()).map(s -> s.text).toList());
    }

    @Override
    public String toString() {
        return text;
    }
}
