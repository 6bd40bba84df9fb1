package io.polylink.core.internal.channel;

import io.polylink.LinkException;
import io.polylink.core.internal.wire.Origin;
import io.polylink.spi.Connection;
import io.polylink.spi.PeerLocation;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The core's side of one {@link Connection}, both ways: what it sends ({@link ChannelSender}),
 * what it receives ({@link ChannelReceiver}) and the transform sessions both use
 * ({@link TransformSessions}). Shared by every flow to the same peer over the same method with
 * the same parameters; made by {@link PeerChannels} when a flow connects or a method reports a
 * connection, and forgotten when the connection closes.
 */
public final class PeerChannel {

    /** Lines a second saying a connection broke of an Error this side met, each naming its connection. */
    private static final int BROKEN_PER_SECOND = 10;

    private final PeerChannels owner;
    private final Connection connection;
    private final boolean deliversOnSend;
    private final TransformSessions sessions;
    private final ChannelSender sender;
    private final ChannelReceiver receiver;
    /** Where the peer runs, once it said: in the table a flow dialled it by, or in a stack announcement. */
    private volatile Origin peerOrigin = Origin.UNKNOWN;
    /** Why RSRs on no stack are refused from this peer, or {@code null}; decided when the peer says where it runs. */
    private volatile String plainRefusal;
    private volatile Throwable failure;
    private volatile boolean closed;
    private final AtomicBoolean gone = new AtomicBoolean();

    PeerChannel(PeerChannels owner, Connection connection, boolean deliversOnSend) {
        this.owner = owner;
        this.connection = connection;
        this.deliversOnSend = deliversOnSend;
        this.sessions = new TransformSessions(this, owner.self, owner.installed, owner.problems);
        this.sender = new ChannelSender(this, sessions, owner.controlSender, owner.here, owner.maxWirePayload);
        this.receiver = new ChannelReceiver(this, sender, sessions, owner);
        this.plainRefusal = owner.installed.required().refusal(connection.method(), List.of(), said());
    }

    public Connection connection() {
        return connection;
    }

    /** @return where the flows bound to this channel send */
    public ChannelSender sender() {
        return sender;
    }

    ChannelReceiver receiver() {
        return receiver;
    }

    public boolean isOpen() {
        return connection.isOpen();
    }

    /** @return whether the connection told the core it closed */
    boolean isClosed() {
        return closed;
    }

    /**
     * The peer says where it runs. The first that says anything is kept: every later word comes
     * from the same context, and a transform session opened meanwhile went by the first.
     */
    public synchronized void peerSays(Origin origin) {
        if (peerOrigin.host() == null && origin.host() != null) {
            peerOrigin = origin;
            plainRefusal = owner.installed.required().refusal(connection.method(), List.of(), said());
        }
    }

    /**
     * @return where the peer says it runs, seen from here, whatever id it gave: what this context
     *     requires of its stacks goes by this, so a peer taking this context's own id gains nothing
     */
    PeerLocation said() {
        return peerOrigin.seenFrom(owner.here);
    }

    /** @return why this context refuses RSRs on no stack from this peer, or {@code null} if it takes them */
    String plainRefusal() {
        return plainRefusal;
    }

    /**
     * @return where the peer runs, seen from here: this context itself, or wherever it said; the
     *     farthest if it did not say
     */
    PeerLocation location() {
        return connection.peer().equals(owner.self) ? PeerLocation.SAME_CONTEXT : peerOrigin.seenFrom(owner.here);
    }

    /**
     * @return whether the connection delivers each frame before its send returns, as its method
     *     said when it was installed: then a flow keeps no copy to send again
     */
    public boolean deliversOnSend() {
        return deliversOnSend;
    }

    /**
     * @return why the connection closed, or {@code null} if it is open or closed in order. A
     *     method marks a connection closed before it tells the core why, so a caller that found it
     *     closed waits a moment (at most 50 ms) for the reason.
     */
    public Throwable failure() {
        if (!closed && !connection.isOpen()) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
            while (!closed && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
            }
        }
        return failure;
    }

    /**
     * Drops a departed transform's session and every stack using it, so its class loader is not
     * kept alive; stacks the peer announced resolve again if the transform returns.
     */
    void forget(String transform) {
        sender.forget(transform);
        receiver.forget(transform);
        sessions.forget(transform);
    }

    /** Tells the peer what this channel's flows delivered, as this context closes in order. */
    void acknowledgeDelivered() {
        receiver.acknowledgeDelivered();
    }

    /**
     * Logs a frame this side refused or could not send: the connection closes.
     *
     * @param trace what to log the stack trace of: an Error that broke a transform or the method, else {@code null}
     */
    void badFrame(RuntimeException why, Throwable trace) {
        String line = "closing " + this + ": " + why.getMessage();
        if (trace instanceof Error) {
            // This side broke, not the peer's input: such as the JVM's report of a fault on a
            // mapping, which can end several connections at once, each of which must be named.
            owner.problems.error("connection broke", BROKEN_PER_SECOND, line, trace);
        } else {
            owner.problems.error("bad frame", line, trace);
        }
    }

    /**
     * A transform session or the connection threw an Error while this side sent, or a flow met one
     * between numbering an RSR and keeping it: the channel is broken, so the connection closes and
     * its flows move, and whoever sent hears a {@link LinkException}, as for any failed connection.
     *
     * @return the exception to throw
     */
    public LinkException broken(Throwable cause) {
        LinkException failed = new LinkException(this + " broke while sending: " + cause + "; closing it", cause);
        badFrame(failed, cause);
        closeConnection();
        return failed;
    }

    /** Closes the connection; whatever its method throws is reported, never passed on. */
    void closeConnection() {
        try {
            connection.close();
        } catch (Throwable t) {
            owner.problems.error("close failed", this + " threw as it closed: " + t, t);
        }
    }

    /**
     * The method closed the connection.
     *
     * @param logged whether its reason was logged already (this side refused a frame)
     */
    void closed(Throwable cause, boolean logged) {
        failure = cause;
        closed = true;
        owner.closed(this, logged ? null : cause);
        sessions.closeAll();
    }

    /** The channel is no longer the context's: the flows it carried are let go of. Once. */
    void gone() {
        if (gone.compareAndSet(false, true)) {
            receiver.release();
        }
    }

    @Override
    public String toString() {
        return connection.toString();
    }
}
