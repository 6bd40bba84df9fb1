package io.polylink.method.crypto.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.Security;
import java.util.Arrays;
import java.util.function.Supplier;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.conscrypt.Conscrypt;

/**
 * The JCE provider that runs the cipher: Conscrypt (BoringSSL) unless the configuration names the
 * JDK's. It fails closed: if Conscrypt was asked for and its native library cannot load, there is
 * no provider, so no transform, rather than a quiet switch to other code.
 *
 * @param name {@link #CONSCRYPT} or {@link #JDK}
 * @param provider the provider itself
 */
record CipherProvider(String name, Provider provider) {

    static final String CONSCRYPT = "conscrypt";
    static final String JDK = "jdk";

    /**
     * @param configured {@link #CONSCRYPT} or {@link #JDK}
     * @param conscrypt yields Conscrypt's provider, or throws why it cannot
     * @param suite the cipher to check the provider with
     * @throws IllegalStateException if the provider cannot run the suite here; the message says what to do
     */
    static CipherProvider choose(String configured, Supplier<Provider> conscrypt, Suite suite) {
        CipherProvider chosen;
        if (configured.equals(JDK)) {
            Provider sunJce = Security.getProvider("SunJCE");
            if (sunJce == null) {
                throw new IllegalStateException("the JDK provider SunJCE is not installed in this JVM; the aead "
                    + "transform stays off. Use provider=conscrypt in " + AeadSettings.PID);
            }
            chosen = new CipherProvider(JDK, sunJce);
        } else {
            Provider provider;
            try {
                provider = conscrypt.get();
            } catch (RuntimeException | LinkageError e) {
                throw new IllegalStateException("Conscrypt cannot run on " + System.getProperty("os.name") + "/"
                    + System.getProperty("os.arch") + " (" + e + "); the aead transform stays off rather than "
                    + "encrypt with a provider nobody chose. Set provider=jdk in " + AeadSettings.PID
                    + " to use the JDK's ciphers instead", e);
            }
            chosen = new CipherProvider(CONSCRYPT, provider);
        }
        chosen.selfTest(suite);
        return chosen;
    }

    /** Loads Conscrypt, whose provider is only as good as its native BoringSSL build. */
    static Provider loadConscrypt() {
        Conscrypt.checkAvailability();
        return Conscrypt.newProvider();
    }

    /** @return a new cipher for {@code suite} from this provider */
    Cipher cipher(Suite suite) {
        try {
            return Cipher.getInstance(suite.transformation(), provider);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(name + " provider " + provider.getName() + " offers no "
                + suite.transformation() + ": " + e, e);
        }
    }

    /**
     * Seals and opens one message, and checks a changed one is refused: a provider that cannot do
     * that must not carry a link.
     */
    private void selfTest(Suite suite) {
        try {
            // A cipher per step: the JDK's ChaCha20 refuses a second init with the same key and nonce.
            Cipher cipher = cipher(suite);
            SecretKeySpec key = new SecretKeySpec(new byte[Suite.KEY_LENGTH], suite.keyAlgorithm());
            byte[] nonce = new byte[Suite.NONCE_LENGTH];
            byte[] plain = "polylink aead self-test".getBytes(StandardCharsets.US_ASCII);
            cipher.init(Cipher.ENCRYPT_MODE, key, suite.parameters(nonce));
            cipher.updateAAD(new byte[] {1, 2, 3});
            byte[] sealed = cipher.doFinal(plain);
            cipher = cipher(suite);
            cipher.init(Cipher.DECRYPT_MODE, key, suite.parameters(nonce));
            cipher.updateAAD(new byte[] {1, 2, 3});
            if (!Arrays.equals(plain, cipher.doFinal(sealed)) || sealed.length != plain.length + Suite.TAG_LENGTH) {
                throw new IllegalStateException("a sealed message did not open to itself");
            }
            sealed[0] ^= 1;
            cipher = cipher(suite);
            cipher.init(Cipher.DECRYPT_MODE, key, suite.parameters(nonce));
            cipher.updateAAD(new byte[] {1, 2, 3});
            try {
                cipher.doFinal(sealed);
                throw new IllegalStateException("a changed message was accepted");
            } catch (AEADBadTagException expected) {
                // as it should be
            }
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new IllegalStateException("the " + name + " provider failed its " + suite + " self-test (" + e
                + "); the aead transform stays off", e);
        }
    }

    /**
     * Runs {@code cipher.doFinal} from {@code length} bytes of {@code input} at {@code inputAt} into
     * {@code output} at {@code outputAt} (absolute indexes; positions untouched). Heap buffers go
     * through their arrays, which every provider handles without an extra copy; a direct input
     * for a heap output is copied into {@code staging} first (see {@link Staging}).
     *
     * @return bytes written
     */
    static int doFinal(Cipher cipher, ByteBuffer input, int inputAt, int length, ByteBuffer output, int outputAt,
                       Staging staging) throws GeneralSecurityException {
        if (output.hasArray() && (input.hasArray() || input.isDirect())) {
            byte[] to = output.array();
            int toAt = output.arrayOffset() + outputAt;
            if (input.hasArray()) {
                return cipher.doFinal(input.array(), input.arrayOffset() + inputAt, length, to, toAt);
            }
            byte[] from = staging.take(length);
            input.get(inputAt, from, 0, length);
            return cipher.doFinal(from, 0, length, to, toAt);
        }
        ByteBuffer from = input.duplicate().limit(inputAt + length).position(inputAt);
        ByteBuffer to = output.duplicate().position(outputAt);
        return cipher.doFinal(from, to);
    }
}
