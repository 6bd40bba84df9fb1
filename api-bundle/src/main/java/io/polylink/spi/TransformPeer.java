package io.polylink.spi;

import io.polylink.ContextId;
import java.nio.ByteBuffer;
import org.osgi.annotation.versioning.ProviderType;

/** What a transform session may use of its connection: who is at each end, and a way to talk. */
@ProviderType
public interface TransformPeer {

    /** @return this context's id */
    ContextId self();

    /** @return the context at the other end */
    ContextId peer();

    /** @return the name of the method the connection runs on */
    String method();

    /**
     * @return where the peer runs, seen from here: a transform scoped to other hosts or other
     *     sites asks this when its session opens
     * @since 0.5
     */
    PeerLocation location();

    /**
     * Sends a handshake message (a key share, say) to the peer's session of the same transform
     * on this connection, where it arrives through {@link TransformSession#onHandshake}. Messages
     * go in order, ahead of any frame sent after this call. They travel untransformed.
     *
     * @param message at most 1024 bytes, consumed
     * @throws io.polylink.LinkException if the connection failed
     * @throws IllegalArgumentException if the message is too long
     */
    void sendHandshake(ByteBuffer message);
}
