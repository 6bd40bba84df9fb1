package io.polylink.method.crypto.internal;

import io.polylink.MalformedMessageException;
import io.polylink.spi.BufferSource;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;

/**
 * The receiving direction of one connection: opens {@link AeadFrame}s. A frame is accepted only
 * with the exact next counter and a tag that verifies; the counter and key state change only
 * after the tag has verified, so a forged frame, whatever counter it claims, leaves the state as
 * it was for the frames after it.
 */
final class Opener {

    private final Suite suite;
    private final CipherProvider provider;
    private final String from;
    private final byte[] nonce = new byte[Suite.NONCE_LENGTH];
    private final byte[] aad = new byte[AeadFrame.MAX_HEADER];
    private final Staging staging = new Staging();
    private Cipher cipher;
    private KeyChain keys;
    /** The next epoch's keys, derived once when a frame first claims them, kept until one verifies. */
    private KeyChain nextKeys;
    private long expected;
    private long epochFrames;
    private boolean closed;

    /** @param from the peer, as error messages name it */
    Opener(Suite suite, CipherProvider provider, KeyChain keys, String from) {
        this.suite = suite;
        this.provider = provider;
        this.cipher = provider.cipher(suite);
        this.keys = keys;
        this.from = from;
    }

    /**
     * @return the payload, position 0 to limit, in a buffer from {@code output}
     * @throws MalformedMessageException if the frame is short, out of sequence, forged, changed,
     *     reflected, or sealed with another key
     */
    synchronized ByteBuffer open(ByteBuffer header, ByteBuffer input, BufferSource output) {
        if (closed) {
            throw new MalformedMessageException("aead frame from " + from + " arrived after its session closed");
        }
        int length = input.remaining();
        if (length < AeadFrame.OVERHEAD) {
            throw new MalformedMessageException("aead frame of " + length + " bytes from " + from
                + " is shorter than its " + AeadFrame.OVERHEAD + "-byte counter and tag");
        }
        int headerLength = header.remaining();
        if (headerLength > AeadFrame.MAX_HEADER) {
            throw new MalformedMessageException("aead frame from " + from + " comes with a header of "
                + headerLength + " bytes, more than " + AeadFrame.MAX_HEADER);
        }
        int at = input.position();
        long field = input.getLong(at + AeadFrame.COUNTER_OFFSET);
        boolean rekey = field < 0;
        long counter = field & AeadFrame.MAX_COUNTER;
        if (counter != expected) {
            throw new MalformedMessageException("aead frame from " + from + " carries counter " + counter
                + " where " + expected + " is next: it was replayed, reordered, reflected or a frame was lost");
        }
        if (!rekey && epochFrames >= AeadSettings.MAX_FRAMES_PER_KEY) {
            throw new MalformedMessageException("aead peer " + from + " sealed more than "
                + AeadSettings.MAX_FRAMES_PER_KEY + " frames under one key without moving to the next");
        }
        KeyChain opening = keys;
        if (rekey) {
            if (nextKeys == null) {
                nextKeys = keys.next(suite);
            }
            opening = nextKeys;
        }
        int plainLength = length - AeadFrame.OVERHEAD;
        ByteBuffer out = output.acquire(plainLength);
        AeadFrame.nonce(field, nonce);
        header.get(header.position(), aad, 0, headerLength);
        int opened;
        try {
            cipher.init(Cipher.DECRYPT_MODE, opening.key(), suite.parameters(nonce));
            cipher.updateAAD(aad, 0, headerLength);
            opened = CipherProvider.doFinal(cipher, input, at + AeadFrame.CIPHERTEXT_OFFSET,
                length - AeadFrame.CIPHERTEXT_OFFSET, out, 0, staging);
        } catch (AEADBadTagException e) {
            renewCipher();
            throw new MalformedMessageException("aead frame " + counter + " from " + from + " failed authentication: "
                + "it was changed, forged, reflected back to its sender, or sealed with another key", e);
        } catch (GeneralSecurityException | RuntimeException e) {
            renewCipher();
            throw new MalformedMessageException("aead frame " + counter + " from " + from + " cannot be opened: " + e, e);
        }
        if (opened != plainLength) {
            throw new MalformedMessageException("aead frame " + counter + " from " + from + " opened to " + opened
                + " bytes, not " + plainLength);
        }
        // Verified: now, and only now, the state moves on.
        if (rekey) {
            keys.wipe();
            keys = nextKeys;
            nextKeys = null;
            epochFrames = 0;
        }
        expected++;
        epochFrames++;
        input.position(input.limit());
        return out.position(0).limit(plainLength);
    }

    /**
     * Replaces the cipher after a frame failed: the genuine frame with the same counter will come
     * with the same nonce under the same key, and some providers (the JDK's ChaCha20) refuse to be
     * initialised twice with one key and nonce, even to decrypt.
     */
    private void renewCipher() {
        cipher = provider.cipher(suite);
    }

    /** Wipes the keys; later frames are refused. Idempotent. */
    synchronized void close() {
        if (!closed) {
            closed = true;
            keys.wipe();
            if (nextKeys != null) {
                nextKeys.wipe();
            }
        }
    }
}
