package io.polylink.method.crypto.internal;

import io.polylink.spi.TransformPeer;
import java.util.Arrays;
import java.util.Locale;

/**
 * Where aead may be used. A stack with aead is never run without encryption: where the scope
 * excludes a connection, opening a session fails, so selection refuses the stack and the link
 * takes another entry (or fails, if pinned to it).
 *
 * <p>The core does not tell transforms whether a peer shares this host; the one case known for
 * sure is a connection within this context. So {@link #OTHER_HOST} treats every other context as
 * another host, and encrypts between two processes on one machine too.
 */
enum Scope {
    /** Encrypt on every connection. */
    ALWAYS("always"),
    /** Refuse aead only where the peer is this very context. */
    OTHER_HOST("other-host"),
    /** Refuse every stack with aead. */
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
        throw new IllegalArgumentException("aead scope '" + text + "' is not one of "
            + Arrays.stream(values()).map(s -> s.text).toList());
    }

    /** @return why aead may not run on this connection, or {@code null} if it may */
    String refusal(TransformPeer peer) {
        return switch (this) {
            case ALWAYS -> null;
            case NEVER -> "aead is configured with scope=never";
            case OTHER_HOST -> peer.self().equals(peer.peer())
                ? "aead is configured with scope=other-host and this link stays within this context" : null;
        };
    }

    @Override
    public String toString() {
        return text;
    }
}
