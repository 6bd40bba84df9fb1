package io.polylink.spi;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.Statistics;
import java.nio.ByteBuffer;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * An open channel to one peer context over one method, shared by every link to that peer with the
 * same parameters. Thread-safe: frames sent from several threads are never interleaved.
 *
 * <p>{@code toString()} names the method, the peer and its address ("tcp connection to 1b2e… at
 * 10.0.0.2:7000"): the core puts it into log lines and errors. A connection that fails tells its
 * receiver why ({@link FrameReceiver#onClosed}); each link using it reports that cause once, to
 * its next send, before it connects again.
 */
@ConsumerType
public interface Connection extends AutoCloseable {

    /**
     * @return the context at the other end: the one dialled, or on the accepting side the one
     *     that dialled, as its opening exchange said (see {@link CommunicationMethod#connect})
     */
    ContextId peer();

    /** @return the name of the method that made this connection */
    String method();

    /**
     * Sends one frame made of {@code header} followed by {@code payload}, consuming both (their
     * positions move to their limits). Writes from the caller's thread when the channel can take
     * the frame now; otherwise copies what is left into a bounded queue for the method's thread.
     * The buffers may be reused when this returns, and their bytes must not be changed: the
     * payload may be the application's own buffer, which the core sends again after a move.
     *
     * <p>A frame is {@code header} and {@code payload} together: {@link MethodContext#maxFrameSize()}
     * bounds their sum, not what the method adds to carry it. A larger frame fails with
     * {@link LinkException} before anything is sent or consumed, and the connection stays open; a
     * method with a lower limit of its own (one datagram) fails the same way above it.
     *
     * @param header the frame's first bytes
     * @param payload the rest
     * @throws LinkException if the frame is larger than the method carries, if the connection is
     *     closed or failed, or if its queue stayed full past the send timeout; the message names
     *     the peer and the reason
     */
    void send(ByteBuffer header, ByteBuffer payload);

    /**
     * Sends one frame as {@link #send} does, but only if that needs no waiting. The core calls it
     * from receiving threads, for acknowledgements: such a thread must never wait on the peer,
     * whose own receiving thread may be waiting on it. If the frame would have to wait (for room,
     * or for another sender), nothing is consumed and the core sends it from a thread of its own
     * instead, which costs a thread hand-off. The default always declines.
     *
     * @return whether the frame was sent (or queued, as {@link #send} does, without waiting)
     * @throws LinkException if the connection is closed or failed
     * @since 0.3
     */
    default boolean trySend(ByteBuffer header, ByteBuffer payload) {
        return false;
    }

    /** @return whether frames can still be sent */
    boolean isOpen();

    /**
     * @return frames and bytes sent and received on this connection, and its errors; bytes are
     *     the frames' (header and payload, as {@link #send} takes them and
     *     {@link FrameReceiver#onFrame} gets them), not what the method adds to carry them
     *     (length prefixes, record headers, its handshake); queued bytes are those {@code send}
     *     took and the connection has not yet handed on
     */
    Statistics statistics();

    /**
     * Closes the channel; queued frames are dropped. Idempotent.
     *
     * <p>This side's receiver is told ({@link FrameReceiver#onClosed} with {@code null}) by the
     * time {@code close} returns. The peer's receiver is told, also with {@code null}, as soon as
     * the method can carry the news: tcp sends a goodbye, shm a closing record; a method with no
     * way to (datagrams) leaves it to the core, whose peer then finds its RSRs unacknowledged and
     * moves its links. Sends after {@code close} fail with {@link LinkException}.
     */
    @Override
    void close();
}
