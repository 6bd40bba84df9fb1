package io.polylink.method.crypto.internal;

/**
 * An array for a cipher's input that arrives in a direct buffer while its output is a heap one:
 * Conscrypt opens such a pair in small pieces, at two to three times the cost of the same work on
 * arrays (64 KiB: 80-90 us against 30-36 us here). Kept from one frame to the next up to
 * {@link #KEEP_BYTES}; a larger frame gets an array of its own, so a session that once carried a
 * large frame does not hold its size for good. Used under its sealer's or opener's lock.
 */
final class Staging {

    static final int KEEP_BYTES = 256 * 1024;

    private byte[] kept = new byte[0];

    /** @return an array of at least {@code length} bytes */
    byte[] take(int length) {
        if (length > KEEP_BYTES) {
            return new byte[length];
        }
        if (kept.length < length) {
            kept = new byte[Math.min(KEEP_BYTES, Math.max(length, 2 * kept.length))];
        }
        return kept;
    }
}
