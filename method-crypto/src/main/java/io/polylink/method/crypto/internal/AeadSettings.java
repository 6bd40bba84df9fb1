package io.polylink.method.crypto.internal;

import io.polylink.spi.TransformScope;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * The aead transform's parameters, read from configuration properties keyed as in
 * {@link AeadConfig}.
 *
 * @param psk the pre-shared key
 * @param suite the cipher
 * @param provider {@code conscrypt} or {@code jdk}
 * @param handshakeTimeoutMs how long a send waits for the peer's key share
 * @param rekeyIntervalMs a direction's key lives at most this long
 * @param rekeyFrames a direction's key seals at most this many frames
 * @param scope where aead may run
 */
record AeadSettings(PreSharedKey psk, Suite suite, String provider, int handshakeTimeoutMs,
                    long rekeyIntervalMs, int rekeyFrames, TransformScope scope) {

    static final String PID = "io.polylink.method.crypto";
    static final int DEFAULT_HANDSHAKE_TIMEOUT_MS = 5000;
    static final long DEFAULT_REKEY_INTERVAL_MS = 10 * 60 * 1000;
    /** No key seals more frames than this, whatever the configuration says. */
    static final int MAX_FRAMES_PER_KEY = 1 << 24;

    AeadSettings {
        if (handshakeTimeoutMs < 1) {
            throw new IllegalArgumentException("aead handshakeTimeoutMs " + handshakeTimeoutMs + " must be at least 1");
        }
        if (rekeyIntervalMs < 1) {
            throw new IllegalArgumentException("aead rekeyIntervalMs " + rekeyIntervalMs + " must be at least 1");
        }
        if (rekeyFrames < 1 || rekeyFrames > MAX_FRAMES_PER_KEY) {
            throw new IllegalArgumentException("aead rekeyFrames " + rekeyFrames + " is outside 1.." + MAX_FRAMES_PER_KEY);
        }
        if (!provider.equals(CipherProvider.CONSCRYPT) && !provider.equals(CipherProvider.JDK)) {
            throw new IllegalArgumentException("aead provider '" + provider + "' is not one of ["
                + CipherProvider.CONSCRYPT + ", " + CipherProvider.JDK + "]");
        }
    }

    /** @throws IllegalArgumentException naming the property that is wrong or missing */
    /** @return whether the configuration names a key at all (a wrong one is a different problem) */
    static boolean hasKey(Map<String, ?> p) {
        return text(p, "psk") != null || text(p, "pskFile") != null;
    }

    static AeadSettings parse(Map<String, ?> p) {
        String psk = text(p, "psk");
        String pskFile = text(p, "pskFile");
        PreSharedKey key;
        if (psk != null && pskFile != null) {
            throw new IllegalArgumentException("configuration " + PID + " sets both psk and pskFile; keep one");
        } else if (psk != null) {
            key = PreSharedKey.fromBase64(psk);
        } else if (pskFile != null) {
            key = PreSharedKey.fromFile(Path.of(pskFile));
        } else {
            throw new IllegalArgumentException("the aead transform needs a pre-shared key and has none: set psk "
                + "(base64, at least " + PreSharedKey.MIN_LENGTH + " bytes) or pskFile in configuration " + PID
                + ", the same on every context that talks aead");
        }
        String suite = text(p, "cipher");
        String provider = text(p, "provider");
        String scope = text(p, "scope");
        return new AeadSettings(key,
            suite == null ? Suite.AES_256_GCM : Suite.parse(suite),
            provider == null ? CipherProvider.CONSCRYPT : provider.toLowerCase(Locale.ROOT),
            integer(p, "handshakeTimeoutMs", DEFAULT_HANDSHAKE_TIMEOUT_MS),
            number(p, "rekeyIntervalMs", DEFAULT_REKEY_INTERVAL_MS),
            integer(p, "rekeyFrames", MAX_FRAMES_PER_KEY),
            scope == null ? TransformScope.ALWAYS : scope(scope));
    }

    private static TransformScope scope(String text) {
        try {
            return TransformScope.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("aead " + e.getMessage(), e);
        }
    }

    private static String text(Map<String, ?> p, String key) {
        Object value = p.get(key);
        String text = value == null ? null : value.toString().strip();
        return text == null || text.isEmpty() ? null : text;
    }

    private static int integer(Map<String, ?> p, String key, int fallback) {
        long value = number(p, key, fallback);
        if (value != (int) value) {
            throw new IllegalArgumentException("aead property " + key + "=" + value + " is out of range");
        }
        return (int) value;
    }

    private static long number(Map<String, ?> p, String key, long fallback) {
        Object value = p.get(key);
        if (value instanceof Number n) {
            return n.longValue();
        }
        try {
            return value == null ? fallback : Long.parseLong(value.toString().strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("aead property " + key + "='" + value + "' is not an integer", e);
        }
    }
}
