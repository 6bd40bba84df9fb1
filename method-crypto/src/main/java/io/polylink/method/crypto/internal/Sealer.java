package io.polylink.method.crypto.internal;

import io.polylink.LinkException;
import io.polylink.spi.BufferSource;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;

/**
 * The sending direction of one connection: seals payloads into {@link AeadFrame}s with the
 * current key and the next counter, and moves to the next key after {@code rekeyFrames} frames or
 * {@code rekeyNanos}. Frames are sealed one at a time (the core sends in order); {@link #close}
 * may come from another thread, so both hold the monitor.
 */
final class Sealer {

    private final Suite suite;
    private final CipherProvider provider;
    private final long rekeyFrames;
    private final long rekeyNanos;
    private final String to;
    private final byte[] nonce = new byte[Suite.NONCE_LENGTH];
    private final byte[] aad = new byte[AeadFrame.MAX_HEADER];
    private final Staging staging = new Staging();
    private Cipher cipher;
    private KeyChain keys;
    private long counter;
    private long epochFrames;
    private long epochStart;
    private boolean closed;

    /**
     * @param keys the first epoch's keys
     * @param to the peer, as error messages name it
     */
    Sealer(Suite suite, CipherProvider provider, KeyChain keys, long rekeyFrames, long rekeyNanos, String to) {
        this.suite = suite;
        this.provider = provider;
        this.cipher = provider.cipher(suite);
        this.keys = keys;
        this.rekeyFrames = rekeyFrames;
        this.rekeyNanos = rekeyNanos;
        this.to = to;
        this.epochStart = System.nanoTime();
    }

    /**
     * @return the frame, position 0 to limit, in a buffer from {@code output}
     * @throws LinkException if the session was closed or its counter is used up; nothing was sent
     */
    synchronized ByteBuffer seal(ByteBuffer header, ByteBuffer input, BufferSource output) {
        if (closed) {
            throw new LinkException("the aead session to " + to + " is closed (its connection closed or the "
                + "transform was removed); the frame was not sent");
        }
        if (counter == AeadFrame.MAX_COUNTER) {
            throw new LinkException("the aead session to " + to + " has sealed 2^63-1 frames; reconnect");
        }
        int length = input.remaining();
        int headerLength = header.remaining();
        if (headerLength > AeadFrame.MAX_HEADER) {
            throw new IllegalArgumentException("frame header of " + headerLength + " bytes exceeds " + AeadFrame.MAX_HEADER);
        }
        ByteBuffer out = output.acquire(AeadFrame.OVERHEAD + length);
        long now = System.nanoTime();
        boolean rekey = epochFrames >= rekeyFrames || now - epochStart >= rekeyNanos;
        KeyChain sealing = rekey ? keys.next(suite) : keys;
        long field = rekey ? counter | AeadFrame.REKEY_BIT : counter;
        AeadFrame.nonce(field, nonce);
        header.get(header.position(), aad, 0, headerLength);
        int sealed;
        try {
            cipher.init(Cipher.ENCRYPT_MODE, sealing.key(), suite.parameters(nonce));
            cipher.updateAAD(aad, 0, headerLength);
            sealed = CipherProvider.doFinal(cipher, input, input.position(), length, out, AeadFrame.CIPHERTEXT_OFFSET,
                staging);
        } catch (GeneralSecurityException | RuntimeException e) {
            // The counter is spent so its nonce is never used again: the peer will refuse the
            // next frame's counter and close the connection, and a new one starts with new keys.
            counter++;
            cipher = provider.cipher(suite);
            throw new LinkException("sealing a frame to " + to + " failed (" + e + "); the frame was not sent", e);
        }
        // Only a frame that was sealed moves the state on.
        if (rekey) {
            keys.wipe();
            keys = sealing;
            epochFrames = 0;
            epochStart = now;
        }
        counter++;
        epochFrames++;
        input.position(input.limit());
        return out.putLong(AeadFrame.COUNTER_OFFSET, field).position(0).limit(AeadFrame.CIPHERTEXT_OFFSET + sealed);
    }

    /** Wipes the keys; later seals fail. Idempotent. */
    synchronized void close() {
        if (!closed) {
            closed = true;
            keys.wipe();
        }
    }
}
