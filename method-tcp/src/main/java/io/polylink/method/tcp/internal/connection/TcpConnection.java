package io.polylink.method.tcp.internal.connection;

import io.polylink.ContextId;
import io.polylink.Statistics;
import io.polylink.method.tcp.internal.address.TcpAddress;
import io.polylink.method.tcp.internal.config.TcpSettings;
import io.polylink.method.tcp.internal.loop.IoLoop;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An established tcp connection to one peer context, as the core holds it: its sending side
 * ({@link Outbound}), its reading side ({@link Inbound}, the loop's handler of the socket) and its
 * clock ({@link Liveness}), started once and closed once.
 */
public final class TcpConnection implements Connection {

    private static final System.Logger LOG = System.getLogger("io.polylink.method.tcp");

    private final SocketChannel channel;
    private final ContextId peer;
    private final boolean dialledByPeer;
    private final int connectionClass;
    private final InetSocketAddress remote;
    final IoLoop loop;
    private final ConnectionListener listener;
    private final TrafficCounts counts = new TrafficCounts();
    final Inbound in;
    final Outbound out;
    private final Liveness liveness;
    /** The receiver heard of the close: from {@link #close} or, if it closed first, {@link #start}. */
    private final AtomicBoolean told = new AtomicBoolean();

    /**
     * @param channel the connected, non-blocking socket, past its handshake
     * @param peer the context at the other end
     * @param dialledByPeer whether the peer dialled it, rather than this side
     * @param connectionClass what tells it from other connections to the same peer: their link parameters
     * @param settings its parameters
     * @param limits the largest frame either way, and the budget for large ones arriving
     * @param loop the I/O loop that reads it
     * @param listener hears when it closes
     */
    public TcpConnection(SocketChannel channel, ContextId peer, boolean dialledByPeer, int connectionClass,
                         TcpSettings.Link settings, FrameLimits limits, IoLoop loop, ConnectionListener listener)
            throws IOException {
        this.channel = channel;
        this.peer = peer;
        this.dialledByPeer = dialledByPeer;
        this.connectionClass = connectionClass;
        this.remote = (InetSocketAddress) channel.getRemoteAddress();
        this.loop = loop;
        this.listener = listener;
        this.in = new Inbound(this, channel, loop, counts, limits);
        this.out = new Outbound(this, channel, loop, in, counts, settings, limits.maxFrame());
        this.liveness = new Liveness(this, in, out, counts, listener, settings);
    }

    /** Hands the connection to the core and the loop; call once, before any frame is read. */
    public void start(FrameReceiver receiver) {
        in.receiveWith(receiver);
        if (!isOpen()) {
            // Published before it started, and a send on it failed meanwhile: the core, which may
            // have links on it already, still has to hear of it.
            tellClosed(out.closeCause());
            return;
        }
        Runnable register = () -> {
            if (isOpen() && !out.register()) {
                fail(new ClosedChannelException()); // the socket closed before it was registered
            }
        };
        if (loop.inLoop()) {
            register.run();
        } else {
            loop.execute(register);
        }
    }

    /** @return the peer's socket address */
    public InetSocketAddress remote() {
        return remote;
    }

    /**
     * From any thread: writes a heartbeat, or what is queued, so that if the peer's end of the
     * socket is gone the connection fails now rather than when the peer is next heard or missed.
     *
     * @return whether the connection is still open
     */
    public boolean probe() {
        return out.probe();
    }

    /** @return whether the peer dialled it, rather than this side */
    public boolean dialledByPeer() {
        return dialledByPeer;
    }

    /** @return what tells it from other connections to the same peer */
    public int connectionClass() {
        return connectionClass;
    }

    @Override
    public ContextId peer() {
        return peer;
    }

    @Override
    public String method() {
        return "tcp";
    }

    @Override
    public boolean isOpen() {
        return out.isOpen();
    }

    @Override
    public void send(ByteBuffer header, ByteBuffer payload) {
        out.send(header, payload);
    }

    @Override
    public boolean trySend(ByteBuffer header, ByteBuffer payload) {
        return out.trySend(header, payload);
    }

    /**
     * From the method's timer thread: sends a heartbeat if nothing else went out lately.
     *
     * @return nanoseconds until this connection needs the timer again
     */
    public long heartbeat(long now) {
        return liveness.heartbeat(now);
    }

    /**
     * On the loop's tick: checks that the peer is alive, and lets idle buffers go.
     *
     * @param held nanoseconds the loop was held since the last tick, which are not the peer's fault
     * @return nanoseconds until this connection's next check; {@link IoLoop#NO_TIMERS} once closed
     */
    public long tick(long now, long held) {
        if (held > 0) {
            in.excuse(held);
        }
        return liveness.check(now);
    }

    /** On the loop, when the socket has room for queued bytes. */
    void drain() throws IOException {
        out.drain();
    }

    /** The peer said goodbye: nothing follows, and nothing is wrong. */
    void closedInOrder() {
        LOG.log(Level.DEBUG, () -> this + ": the peer closed it in order");
        close(null, false);
    }

    /** Closes the connection for {@code cause}, which the core logs; any thread. */
    public void fail(Throwable cause) {
        close(cause, false);
    }

    /** Closes in order: the peer reads a goodbye, not just the end of the stream. */
    @Override
    public void close() {
        close(null, true);
    }

    private void close(Throwable cause, boolean sayGoodbye) {
        if (!out.stop(cause, sayGoodbye)) {
            return;
        }
        in.stop();
        try {
            channel.close();
        } catch (IOException ignored) {
            // the socket is gone either way
        }
        out.release();
        listener.closed(this);
        tellClosed(cause);
    }

    private void tellClosed(Throwable cause) {
        FrameReceiver r = in.receiver();
        if (r != null && told.compareAndSet(false, true)) {
            r.onClosed(cause);
        }
    }

    @Override
    public Statistics statistics() {
        return counts.snapshot(out.queuedBytes());
    }

    @Override
    public String toString() {
        return "tcp connection to " + peer + " at " + TcpAddress.describe(remote);
    }
}
