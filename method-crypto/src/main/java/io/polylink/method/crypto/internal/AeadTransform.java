package io.polylink.method.crypto.internal;

import io.polylink.LinkException;
import io.polylink.spi.PeerLocation;
import io.polylink.spi.Transform;
import io.polylink.spi.TransformPeer;
import io.polylink.spi.TransformScope;
import io.polylink.spi.TransformSession;
import java.security.Provider;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The {@code aead} transform: authenticated encryption of every payload, with keys agreed per
 * connection and direction by an ephemeral X25519 exchange that the pre-shared key authenticates.
 * See {@link AeadSession} for the keys, {@link AeadFrame} for the wire form.
 *
 * <p>Constructing one checks the cipher provider; a transform that exists can encrypt.
 */
public final class AeadTransform implements Transform {

    static final String NAME = "aead";

    /** What every session derives from the pre-shared key. */
    record Keys(byte[] helloKey, byte[] sessionSalt) {}

    private final AeadSettings settings;
    private final CipherProvider provider;
    private final Keys keys;

    /**
     * The transform a configuration describes, for a context embedded without OSGi as much as for
     * {@link AeadComponent}.
     *
     * @param properties the parameters of configuration {@code io.polylink.method.crypto}
     * @throws IllegalArgumentException if the configuration is incomplete or wrong
     * @throws IllegalStateException if the chosen cipher provider cannot run here
     */
    public static AeadTransform configured(Map<String, Object> properties) {
        return configured(properties, CipherProvider::loadConscrypt);
    }

    /** @param conscrypt yields Conscrypt's provider or throws why it cannot */
    static AeadTransform configured(Map<String, Object> properties, Supplier<Provider> conscrypt) {
        AeadSettings settings = AeadSettings.parse(properties);
        return new AeadTransform(settings, CipherProvider.choose(settings.provider(), conscrypt, settings.suite()));
    }

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
        if (!settings.scope().covers(peer.location())) {
            throw new LinkException(refusal(settings.scope(), peer.location()) + " (" + AeadSettings.PID
                + "); the stack is refused, never run unencrypted");
        }
        AeadSession session = new AeadSession(keys, settings, provider, peer);
        peer.sendHandshake(session.hello());
        return session;
    }

    private static String refusal(TransformScope scope, PeerLocation peer) {
        return scope == TransformScope.NEVER ? "aead is configured with scope=never"
            : "aead is configured with scope=" + scope + " and this link stays within " + switch (peer) {
                case SAME_CONTEXT -> "this context";
                case SAME_HOST -> "this host";
                default -> "this site";
            };
    }

    CipherProvider provider() {
        return provider;
    }

    @Override
    public String toString() {
        return "aead transform (" + settings.suite() + " by " + provider.name() + ", scope " + settings.scope() + ")";
    }
}
