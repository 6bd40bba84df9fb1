package io.polylink.spi;

import java.util.Arrays;
import java.util.Locale;

/**
 * On which connections a transform runs, by where the peer is ({@link TransformPeer#location()}).
 * Configuration names the constants in lower case with hyphens ({@code other-host}), as
 * {@link Configuration} reads enums. A peer that did not say where it runs counts as on another
 * site, so a scope never leaves it out by mistake.
 *
 * <p>What a transform does where its scope leaves a connection out is its own: lz4 sends payloads
 * stored, aead refuses to open a session so that selection takes another stack.
 */
public enum TransformScope {

    /** Every connection. */
    ALWAYS,

    /** Connections to peers on another host. */
    OTHER_HOST,

    /** Connections to peers on another site. */
    OTHER_SITE,

    /** No connection. */
    NEVER;

    /**
     * @param text a configuration value, such as {@code other-host}
     * @return the scope it names
     * @throws IllegalArgumentException naming the text and the values allowed
     */
    public static TransformScope parse(String text) {
        String wanted = text.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(s -> s.toString().equals(wanted)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("scope '" + text + "' is not one of "
                + Arrays.toString(values())));
    }

    /** @return whether the transform runs with a peer there */
    public boolean covers(PeerLocation peer) {
        return switch (this) {
            case ALWAYS -> true;
            case OTHER_HOST -> peer.offHost();
            case OTHER_SITE -> peer.offSite();
            case NEVER -> false;
        };
    }

    /** @return the name configuration gives, such as {@code other-host} */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
