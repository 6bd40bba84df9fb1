package io.polylink.method.crypto.internal;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.MalformedMessageException;
import io.polylink.spi.BufferSource;
import io.polylink.spi.TransformPeer;
import io.polylink.spi.TransformSession;
import java.nio.ByteBuffer;
import java.security.KeyPair;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * aead for one connection. It opens by sending its {@link Hello}; when the peer's arrives, both
 * directions get their keys:
 *
 * <pre>
 *   shared = X25519(this side's ephemeral private key, peer's ephemeral public key)
 *   prk    = HKDF-Extract(salt = session salt from the psk, shared)
 *   chain(sender, receiver) = HKDF-Expand(prk, "polylink aead v1 chain" | suite
 *                               | sender id | receiver id | sender's key | receiver's key, 32)
 * </pre>
 *
 * <p>The two directions' labels differ in the order of ids and keys, so each has its own key and
 * a frame reflected back to its sender does not open. On the core's loopback ({@code aead/local})
 * one session is both ends and reads its own hello: both labels coincide and one key serves both
 * ways, which is sound there because nothing outside the process sees those frames.
 *
 * <p>Nothing is sent before the keys exist: {@link #encode} waits for the peer's hello, up to the
 * configured timeout, then fails with a {@link LinkException}. A hello that does not verify, or a
 * second hello on a connection already keyed (the peer restarted its session), is refused, which
 * closes the connection so both ends start afresh.
 */
final class AeadSession implements TransformSession {

    private static final byte[] CHAIN_LABEL = PreSharedKey.label("polylink aead v1 chain");

    private final AeadTransform.Keys keys;
    private final AeadSettings settings;
    private final CipherProvider provider;
    private final TransformPeer peer;
    /** Dropped once the shared secret is computed: what is not kept cannot leak later. */
    private KeyPair ephemeral;
    private final byte[] publicKey;
    private final String who;
    private final CountDownLatch keyed = new CountDownLatch(1);
    private volatile Sealer sealer;
    private volatile Opener opener;
    /** Why this session can never send: set when a hello fails or the session closes. */
    private volatile String failure;
    private boolean helloReceived;
    private boolean closed;

    AeadSession(AeadTransform.Keys keys, AeadSettings settings, CipherProvider provider, TransformPeer peer) {
        this.keys = keys;
        this.settings = settings;
        this.provider = provider;
        this.peer = peer;
        this.ephemeral = X25519.generate();
        this.publicKey = X25519.raw(ephemeral.getPublic());
        this.who = "context " + peer.peer() + " over " + peer.method();
    }

    /** @return this session's hello, for the peer */
    ByteBuffer hello() {
        return new Hello(settings.suite(), publicKey).write(keys.helloKey(), peer.self(), peer.peer());
    }

    @Override
    public ByteBuffer encode(ByteBuffer header, ByteBuffer input, BufferSource output) {
        Sealer s = sealer;
        if (s == null) {
            s = awaitKeys();
        }
        return s.seal(header, input, output);
    }

    private Sealer awaitKeys() {
        try {
            keyed.await(settings.handshakeTimeoutMs(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LinkException("interrupted while waiting for the aead handshake with " + who
                + "; the frame was not sent");
        }
        Sealer s = sealer;
        String why = failure;
        if (why != null) {
            throw new LinkException("aead link to " + who + " cannot send: " + why + "; the frame was not sent");
        }
        if (s == null) {
            throw new LinkException("no aead handshake from " + who + " within " + settings.handshakeTimeoutMs()
                + " ms, so the frame was not sent (aead never sends unencrypted). Is aead installed there, with "
                + "the same psk? A send from the thread that receives from that peer (an INLINE handler) waits in "
                + "vain: the handshake cannot arrive while it waits");
        }
        return s;
    }

    /** Encode can run at once when the keys exist, or fails at once when they never will. */
    @Override
    public boolean ready() {
        return sealer != null || failure != null;
    }

    @Override
    public ByteBuffer decode(ByteBuffer header, ByteBuffer input, BufferSource output) {
        Opener o = opener;
        if (o == null) {
            throw new MalformedMessageException("aead frame from " + who + " arrived before its handshake"
                + (failure == null ? "" : " (" + failure + ")"));
        }
        return o.open(header, input, output);
    }

    /**
     * Takes the peer's hello, verifies it and derives both directions' keys.
     *
     * @throws MalformedMessageException naming the peer and what is wrong, if the hello does not
     *     verify, disagrees on the cipher, or comes a second time
     */
    @Override
    public void onHandshake(ByteBuffer message) {
        synchronized (this) {
            if (closed) {
                throw new MalformedMessageException("aead handshake from " + who + " arrived after its session closed");
            }
            if (helloReceived) {
                // The peer opened a new session on this connection (its aead left and came back);
                // the old keys cannot be handed over safely in band, so both ends start afresh.
                throw new MalformedMessageException("aead handshake from " + who + " came a second time on one "
                    + "connection (the peer restarted its aead session); closing the connection so both ends "
                    + "start afresh");
            }
            helloReceived = true;
        }
        Hello hello;
        byte[] shared;
        try {
            hello = Hello.read(message, keys.helloKey(), peer.peer(), peer.self(), settings.suite());
            shared = X25519.agree(ephemeral.getPrivate(), hello.publicKey());
        } catch (IllegalArgumentException e) {
            ephemeral = null;
            String why = "its handshake was refused: " + e.getMessage();
            fail(why);
            throw new MalformedMessageException("aead handshake from " + who + " refused: " + e.getMessage(), e);
        }
        ephemeral = null;
        byte[] prk = Hkdf.extract(keys.sessionSalt(), shared);
        Arrays.fill(shared, (byte) 0);
        KeyChain sending = new KeyChain(chain(prk, peer.self(), peer.peer(), publicKey, hello.publicKey()), settings.suite());
        KeyChain receiving = new KeyChain(chain(prk, peer.peer(), peer.self(), hello.publicKey(), publicKey), settings.suite());
        Arrays.fill(prk, (byte) 0);
        synchronized (this) {
            if (closed) {
                sending.wipe();
                receiving.wipe();
                return;
            }
            opener = new Opener(settings.suite(), provider, receiving, who);
            sealer = new Sealer(settings.suite(), provider, sending, settings.rekeyFrames(),
                TimeUnit.MILLISECONDS.toNanos(settings.rekeyIntervalMs()), who);
        }
        keyed.countDown();
    }

    private byte[] chain(byte[] prk, ContextId sender, ContextId receiver, byte[] senderKey, byte[] receiverKey) {
        ByteBuffer info = ByteBuffer.allocate(CHAIN_LABEL.length + 1 + 2 * ContextId.BYTES + 2 * X25519.KEY_LENGTH)
            .put(CHAIN_LABEL).put((byte) settings.suite().code())
            .put(X25519.bytes(sender)).put(X25519.bytes(receiver)).put(senderKey).put(receiverKey);
        return Hkdf.expand(prk, info.array(), Hkdf.HASH_LENGTH);
    }

    private void fail(String why) {
        failure = why;
        keyed.countDown();
    }

    /** Wipes the keys and fails any send waiting for them. Idempotent. */
    @Override
    public void close() {
        Sealer s;
        Opener o;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            s = sealer;
            o = opener;
        }
        if (failure == null) {
            fail(s == null
                ? "the connection closed before the handshake completed; the peer may have refused this context's "
                    + "handshake: check that aead is installed there with the same psk and cipher (its log says why)"
                : "the session closed (its connection closed or the aead transform was removed)");
        }
        if (s != null) {
            s.close();
        }
        if (o != null) {
            o.close();
        }
    }
}
