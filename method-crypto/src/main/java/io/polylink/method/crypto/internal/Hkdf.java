package io.polylink.method.crypto.internal;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HKDF with HMAC-SHA256 (RFC 5869): {@link #extract} concentrates the entropy of input keying
 * material into a pseudorandom key, {@link #expand} stretches that key into as many independent
 * keys as there are distinct {@code info} labels.
 */
final class Hkdf {

    static final int HASH_LENGTH = 32;
    private static final String HMAC = "HmacSHA256";

    private Hkdf() {}

    /**
     * @param salt a non-secret random value or a key; empty stands for {@value #HASH_LENGTH} zero bytes
     * @param inputKeyMaterial the secret to extract from, e.g. a Diffie-Hellman result
     * @return a {@value #HASH_LENGTH}-byte pseudorandom key
     */
    static byte[] extract(byte[] salt, byte[] inputKeyMaterial) {
        Mac mac = hmac(salt.length == 0 ? new byte[HASH_LENGTH] : salt);
        return mac.doFinal(inputKeyMaterial);
    }

    /**
     * @param pseudorandomKey at least {@value #HASH_LENGTH} bytes from {@link #extract} (or a key as good)
     * @param info what the output is for; distinct labels give independent keys
     * @param length bytes wanted, at most 255 hash lengths
     * @return {@code length} bytes of output keying material
     */
    static byte[] expand(byte[] pseudorandomKey, byte[] info, int length) {
        if (length < 0 || length > 255 * HASH_LENGTH) {
            throw new IllegalArgumentException("HKDF-SHA256 yields 0 to " + 255 * HASH_LENGTH + " bytes, not " + length);
        }
        Mac mac = hmac(pseudorandomKey);
        byte[] out = new byte[length];
        byte[] block = new byte[0];
        for (int done = 0, counter = 1; done < length; counter++) {
            // T(i) = HMAC(PRK, T(i-1) | info | i)
            mac.update(block);
            mac.update(info);
            mac.update((byte) counter);
            block = mac.doFinal();
            int take = Math.min(HASH_LENGTH, length - done);
            System.arraycopy(block, 0, out, done, take);
            done += take;
        }
        return out;
    }

    /** @return HMAC-SHA256 keyed with {@code key}, from the JDK */
    static Mac hmac(byte[] key) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK offers no " + HMAC + ", which every Java SE has: " + e, e);
        }
    }
}
