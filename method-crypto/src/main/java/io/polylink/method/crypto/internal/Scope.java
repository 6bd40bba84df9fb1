package io.polylink.method.crypto.internal;

import io.polylink.spi.PeerLocation;
import java.util.Arrays;
import java.util.Locale;

/**
 * Where aead may be used. A stack with aead is never run without encryption: where the scope
 * excludes a connection, opening a session fails, so selection refuses the stack and the link
 * takes another entry (or fails, if pinned to it). {@link #OTHER_HOST} and {@link #OTHER_SITE}
 * go by where the core says the peer runs ({@link io.polylink.spi.TransformPeer#location()}); a
 * peer that did not say where it runs counts as on another site, so it is encrypted.
 */
enum Scope {
    /** Encrypt on every connection. */
    ALWAYS,
    /** Encrypt with peers on another host; refuse aead within this host. */
    OTHER_HOST,
    /** Encrypt with peers on another site; refuse aead within this site. */
    OTHER_SITE,
    /** Refuse every stack with aead. */
    NEVER;

    /** @throws IllegalArgumentException naming the accepted values */
    static Scope parse(String text) {
        String wanted = text.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(s -> s.toString().equals(wanted)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("aead scope '" + text + "' is not one of "
                + Arrays.toString(values())));
    }

    /** @return why aead may not run with a peer there, or {@code null} if it may */
    String refusal(PeerLocation peer) {
        boolean covered = switch (this) {
            case ALWAYS -> true;
            case OTHER_HOST -> peer.offHost();
            case OTHER_SITE -> peer.offSite();
            case NEVER -> false;
        };
        if (covered) {
            return null;
        }
        return this == NEVER ? "aead is configured with scope=never"
            : "aead is configured with scope=" + this + " and this link stays within " + switch (peer) {
                case SAME_CONTEXT -> "this context";
                case SAME_HOST -> "this host";
                default -> "this site";
            };
    }

    /** @return the name a configuration gives, such as {@code other-host} */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
