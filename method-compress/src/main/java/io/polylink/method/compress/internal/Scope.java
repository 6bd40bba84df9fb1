package io.polylink.method.compress.internal;

import io.polylink.spi.TransformPeer;
import java.util.Arrays;
import java.util.Locale;

/**
 * Where lz4 does its work. Compressing pays off across a network and rarely within one host, but
 * the core does not tell transforms whether a peer shares this host: the one case known for sure
 * is a connection within this context. So {@link #OTHER_HOST} treats every other context as
 * another host, and says so in its documentation rather than guessing from method names.
 */
enum Scope {
    /** Compress on every connection. */
    ALWAYS("always"),
    /** Compress unless the peer is this very context. */
    OTHER_HOST("other-host"),
    /** Never compress: every payload is sent stored behind its 1-byte flag. */
    NEVER("never");

    private final String text;

    Scope(String text) {
        this.text = text;
    }

    /** @throws IllegalArgumentException naming the accepted values */
    static Scope parse(String text) {
        String wanted = text.strip().toLowerCase(Locale.ROOT);
        for (Scope s : values()) {
            if (s.text.equals(wanted)) {
                return s;
            }
        }
        throw new IllegalArgumentException("lz4 scope '" + text + "' is not one of "
            + Arrays.stream(values()).map(s -> s.text).toList());
    }

    /** @return whether payloads on this connection are worth compressing */
    boolean covers(TransformPeer peer) {
        return switch (this) {
            case ALWAYS -> true;
            case NEVER -> false;
            case OTHER_HOST -> !peer.self().equals(peer.peer());
        };
    }

    @Override
    public String toString() {
        return text;
    }
}
