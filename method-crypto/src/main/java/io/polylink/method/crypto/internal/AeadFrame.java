package io.polylink.method.crypto.internal;

/**
 * Layout of a payload as the aead transform sends it. Network byte order.
 *
 * <pre>
 *   0                                   8                          8+n      8+n+16
 *   +-+---------------------------------+-------------- ... -------+--------+
 *   |R|        counter (63 bits)        |  ciphertext (n bytes)     |  tag   |
 *   +-+---------------------------------+-------------- ... -------+--------+
 * </pre>
 *
 * <ul>
 *   <li>counter: frames this direction of this connection sealed before this one. The receiver
 *       accepts only the exact next value (the transport is reliable and ordered), so a replayed,
 *       reordered, dropped or reflected frame is refused.
 *   <li>R: set on the first frame under the direction's next key; sender and receiver both
 *       ratchet their key chain once, so keys change without a message of their own.
 *   <li>The nonce is four zero bytes and then these eight. Counters never repeat within a
 *       direction, and each direction and epoch has its own key, so no nonce repeats under a key.
 *   <li>The frame header the core passes in is the associated data: the ciphertext is bound to
 *       the stack, handler and endpoint it was sent to.
 * </ul>
 */
final class AeadFrame {

    static final int COUNTER_OFFSET = 0;
    static final int CIPHERTEXT_OFFSET = 8;
    /** Bytes a frame adds to its payload. */
    static final int OVERHEAD = CIPHERTEXT_OFFSET + Suite.TAG_LENGTH;
    static final long REKEY_BIT = Long.MIN_VALUE;
    static final long MAX_COUNTER = Long.MAX_VALUE;
    /** Headers longer than this are not the core's; aead refuses to authenticate them. */
    static final int MAX_HEADER = 32;

    private AeadFrame() {}

    /** Writes the nonce for a counter field into {@code nonce}. */
    static void nonce(long field, byte[] nonce) {
        nonce[0] = nonce[1] = nonce[2] = nonce[3] = 0;
        for (int i = 0; i < 8; i++) {
            nonce[4 + i] = (byte) (field >>> (56 - 8 * i));
        }
    }
}
