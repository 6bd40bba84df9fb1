package io.polylink.method.crypto.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.AttributeType;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the aead transform, PID {@code io.polylink.method.crypto}. Without a
 * pre-shared key the transform does not start: there is no safe default key.
 */
@ObjectClassDefinition(name = "Polylink aead transform")
@interface AeadConfig {

    @AttributeDefinition(type = AttributeType.PASSWORD, required = false,
        description = "Pre-shared key, base64, at least 32 bytes; the same on every context that talks "
            + "aead. Or use pskFile")
    String psk();

    @AttributeDefinition(required = false, description = "File holding the pre-shared key in base64; instead of psk")
    String pskFile();

    @AttributeDefinition(description = "aes-256-gcm or chacha20-poly1305; the same on both ends")
    String cipher() default "aes-256-gcm";

    @AttributeDefinition(description = "conscrypt (BoringSSL; the transform stays off if its native "
        + "library cannot load) or jdk")
    String provider() default "conscrypt";

    @AttributeDefinition(description = "How long the first send on a connection waits for the peer's "
        + "key share, in ms, before it fails; nothing is ever sent unencrypted")
    int handshakeTimeoutMs() default AeadSettings.DEFAULT_HANDSHAKE_TIMEOUT_MS;

    @AttributeDefinition(description = "Each direction moves to a new key after this many ms")
    long rekeyIntervalMs() default AeadSettings.DEFAULT_REKEY_INTERVAL_MS;

    @AttributeDefinition(description = "Each direction moves to a new key after this many frames; at most 16777216")
    int rekeyFrames() default AeadSettings.MAX_FRAMES_PER_KEY;

    @AttributeDefinition(description = "Where aead may run: always, other-host (only with peers on another "
        + "host), other-site (only with peers on another site) or never. Stacks outside it are refused, never "
        + "run unencrypted")
    String scope() default "always";
}
