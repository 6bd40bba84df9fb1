package io.polylink.method.crypto.internal;

import java.util.Arrays;
import javax.crypto.spec.SecretKeySpec;

/**
 * The keys of one direction of one connection, one epoch at a time. Each epoch's cipher key and
 * the next epoch's chain key are drawn from the current chain key with HKDF-Expand under
 * different labels, and the old chain key is wiped, so a key taken from memory later opens
 * nothing sent before its epoch.
 */
final class KeyChain {

    private static final byte[] KEY_LABEL = PreSharedKey.label("polylink aead v1 key");
    private static final byte[] NEXT_LABEL = PreSharedKey.label("polylink aead v1 next");

    private final byte[] chain;
    private final byte[] keyBytes;
    private final SecretKeySpec key;

    /** @param chain this epoch's chain key; the chain takes it over and wipes it when done */
    KeyChain(byte[] chain, Suite suite) {
        this.chain = chain;
        this.keyBytes = Hkdf.expand(chain, KEY_LABEL, Suite.KEY_LENGTH);
        this.key = new SecretKeySpec(keyBytes, suite.keyAlgorithm());
    }

    /** @return this epoch's cipher key */
    SecretKeySpec key() {
        return key;
    }

    /** @return the next epoch's keys; this one stays usable until {@link #wipe()} */
    KeyChain next(Suite suite) {
        return new KeyChain(Hkdf.expand(chain, NEXT_LABEL, Hkdf.HASH_LENGTH), suite);
    }

    /**
     * Overwrites the chain key and this side's copy of the cipher key. (The JCE's own copies, inside
     * {@link SecretKeySpec} and the cipher, are beyond reach; they go with the garbage.)
     */
    void wipe() {
        Arrays.fill(chain, (byte) 0);
        Arrays.fill(keyBytes, (byte) 0);
    }
}
