package io.polylink.bench.internal.transforms;

import io.polylink.bench.internal.BenchTransforms;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.spec.AlgorithmParameterSpec;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.conscrypt.Conscrypt;

/**
 * aead: the raw side is javax.crypto.Cipher from Conscrypt with the transform's cipher and key
 * size, per message: init with a fresh 12-byte nonce from a counter, the frame header as
 * associated data, seal into a reused array; then the same to open. The transform does that plus
 * its own frame (counter, rekey check, replay window).
 */
final class AeadWork extends TransformWork {

    private static final int TAG_BITS = 128;

    private final String cipherName;
    private final Provider provider = Conscrypt.newProvider();
    /** @param cipherName {@code aes-256-gcm} or {@code chacha20-poly1305}, as the transform's setting */
    AeadWork(byte[] data, String cipherName) {
        super(data, BenchTransforms.aead(cipherName));
        this.cipherName = cipherName;
    }

    private boolean gcm() {
        return cipherName.equals("aes-256-gcm");
    }

    private AlgorithmParameterSpec parameters(byte[] nonce) {
        return gcm() ? new GCMParameterSpec(TAG_BITS, nonce) : new IvParameterSpec(nonce);
    }

    @Override
    Runnable raw() {
        try {
            String transformation = gcm() ? "AES/GCM/NoPadding" : "ChaCha20-Poly1305";
            Cipher seal = Cipher.getInstance(transformation, provider);
            Cipher open = Cipher.getInstance(transformation, provider);
            SecretKeySpec key = new SecretKeySpec(new byte[32], gcm() ? "AES" : "ChaCha20");
            byte[] nonce = new byte[12];
            ByteBuffer nonceView = ByteBuffer.wrap(nonce).order(ByteOrder.BIG_ENDIAN);
            byte[] sealed = new byte[data.length + TAG_BITS / 8];
            byte[] opened = new byte[data.length];
            long[] counter = {0};
            Runnable round = () -> {
                try {
                    nonceView.putLong(4, counter[0]++);
                    seal.init(Cipher.ENCRYPT_MODE, key, parameters(nonce));
                    seal.updateAAD(HEADER);
                    int n = seal.doFinal(data, 0, data.length, sealed, 0);
                    open.init(Cipher.DECRYPT_MODE, key, parameters(nonce));
                    open.updateAAD(HEADER);
                    int back = open.doFinal(sealed, 0, n, opened, 0);
                    sink += opened[back - 1];
                } catch (GeneralSecurityException e) {
                    throw new IllegalStateException("raw " + cipherName + " failed: " + e, e);
                }
            };
            round.run();
            checkSame("raw " + cipherName, ByteBuffer.wrap(opened));
            return round;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Conscrypt has no " + cipherName + ": " + e, e);
        }
    }

    @Override
    String name() {
        return "aead";
    }

    @Override
    String rawDescription() {
        return "javax.crypto.Cipher " + cipherName + " by " + provider.getName() + " " + provider.getVersionStr();
    }
}
