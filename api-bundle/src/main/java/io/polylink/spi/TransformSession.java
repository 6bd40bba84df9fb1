package io.polylink.spi;

import io.polylink.MalformedMessageException;
import java.nio.ByteBuffer;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A transform's state for one connection. Encoding runs for one frame at a time in send order;
 * decoding likewise in receive order; the two may run on different threads.
 */
@ConsumerType
public interface TransformSession extends AutoCloseable {

    /**
     * @param header the frame header, to authenticate, not to change
     * @param input the bytes to encode (position to limit); consumed, never changed: they may be
     *     the application's own buffer, which the core sends again after a move
     * @param output where to get memory for the result
     * @return the encoded bytes, position 0 to limit; may be a buffer from {@code output}
     */
    ByteBuffer encode(ByteBuffer header, ByteBuffer input, BufferSource output);

    /**
     * @param header the frame header as received, to authenticate
     * @param input the encoded bytes (position to limit); consumed
     * @param output where to get memory for the result; it refuses sizes over the bound, so ask
     *     for the declared size before decoding anything
     * @return the decoded bytes, position 0 to limit
     * @throws MalformedMessageException if {@code input} is corrupt, forged or out of bounds
     */
    ByteBuffer decode(ByteBuffer header, ByteBuffer input, BufferSource output);

    /**
     * Whether {@link #encode} can run now without waiting for the peer, for example for the
     * answer to a key exchange. The core never makes a receiving thread wait: a frame sent from
     * an inline handler while this is {@code false} is encoded later on another thread. The
     * default is {@code true}.
     *
     * @return {@code false} while encode would block on the peer
     */
    default boolean ready() {
        return true;
    }

    /**
     * Takes a handshake message the peer's session sent with {@link TransformPeer#sendHandshake};
     * called in order, on the connection's receiving thread. The default ignores it.
     *
     * @param message the bytes, valid only during the call
     * @throws io.polylink.MalformedMessageException if the message is bad; the connection closes
     */
    default void onHandshake(ByteBuffer message) {}

    /** Releases the session's state. Idempotent. */
    @Override
    void close();
}
