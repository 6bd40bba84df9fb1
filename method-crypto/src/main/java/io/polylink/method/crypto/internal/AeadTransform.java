package io.polylink.method.crypto.internal;

import io.polylink.LinkException;
import io.polylink.spi.Transform;
import io.polylink.spi.TransformPeer;
import io.polylink.spi.TransformSession;

/**
 * The {@code aead} transform: authenticated encryption of every payload, with keys agreed per
 * connection and direction by an ephemeral X25519 exchange that the pre-shared key authenticates.
 * See {@link AeadSession} for the keys, {@link AeadFrame} for the wire form.
 *
 * <p>Constructing one checks the cipher provider; a transform that exists can encrypt.
 */
final class AeadTransform implements Transform {

    static final String NAME = "aead";

    /** What every session derives from the pre-shared key. */
    record Keys(byte[] helloKey, byte[] sessionSalt) {}

    private final AeadSettings settings;
    private final CipherProvider provider;
    private final Keys keys;

    AeadTransform(AeadSettings settings, CipherProvider provider) {
        this.settings = settings;
        this.provider = provider;
        this.keys = new Keys(settings.psk().helloKey(), settings.psk().sessionSalt());
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * @throws LinkException if the configured scope excludes this connection; selection then
     *     refuses the stack rather than run it without encryption
     */
    @Override
    public TransformSession open(TransformPeer peer) {
        String refusal = settings.scope().refusal(peer);
        if (refusal != null) {
            throw new LinkException(refusal + " (" + AeadSettings.PID + "); the stack is refused, never run "
                + "unencrypted");
        }
        AeadSession session = new AeadSession(keys, settings, provider, peer);
        peer.sendHandshake(session.hello());
        return session;
    }

    CipherProvider provider() {
        return provider;
    }

    @Override
    public String toString() {
        return "aead transform (" + settings.suite() + " by " + provider.name() + ", scope " + settings.scope() + ")";
    }
}
