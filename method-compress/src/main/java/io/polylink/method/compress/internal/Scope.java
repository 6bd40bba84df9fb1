package io.polylink.method.compress.internal;

import io.polylink.spi.PeerLocation;
import java.util.Arrays;
import java.util.Locale;

/**
 * Where lz4 compresses. Compressing pays off across a network and rarely within one host, so
 * {@link #OTHER_HOST} and {@link #OTHER_SITE} compress only where the core says the peer runs
 * farther away ({@link io.polylink.spi.TransformPeer#location()}); a peer that did not say where it
 * runs counts as on another site.
 */
enum Scope {
    /** Compress on every connection. */
    ALWAYS,
    /** Compress only with peers on another host. */
    OTHER_HOST,
    /** Compress only with peers on another site. */
    OTHER_SITE,
    /** Never compress: every payload is sent stored behind its 1-byte flag. */
    NEVER;

    /** @throws IllegalArgumentException naming the accepted values */
    static Scope parse(String text) {
        String wanted = text.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(s -> s.toString().equals(wanted)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("lz4 scope '" + text + "' is not one of "
                + Arrays.toString(values())));
    }

    /** @return whether payloads to a peer there are worth compressing */
    boolean covers(PeerLocation peer) {
        return switch (this) {
            case ALWAYS -> true;
            case OTHER_HOST -> peer.offHost();
            case OTHER_SITE -> peer.offSite();
            case NEVER -> false;
        };
    }

    /** @return the name a configuration gives, such as {@code other-host} */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
