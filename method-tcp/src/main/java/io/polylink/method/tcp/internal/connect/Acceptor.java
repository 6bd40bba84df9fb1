package io.polylink.method.tcp.internal.connect;

import io.polylink.ContextId;
import io.polylink.method.tcp.internal.config.TcpSettings;
import io.polylink.method.tcp.internal.connection.TcpConnection;
import io.polylink.method.tcp.internal.liveness.Heartbeats;
import io.polylink.method.tcp.internal.loop.IdleStrategy;
import io.polylink.method.tcp.internal.loop.IoLoop;
import io.polylink.spi.MethodContext;
import io.polylink.spi.ProblemLog;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Accepting, on a thread of its own ({@code polylink-tcp-accept}): the listening socket, and each
 * accepted socket until its hello is read and answered ({@link InboundHandshake}).
 *
 * <p>Handshakes have a thread of their own because the I/O thread may be dialling: an inline
 * handler that sends to a peer with no connection yet dials on it, and if that peer is dialling
 * this side at the same moment and wins, the dial waits for the peer's connection to be accepted
 * here, which the I/O thread, being busy waiting, could never do.
 *
 * <p>When two contexts dial each other at once, the connection dialled by the context with the
 * lower id wins: an acceptor with the lower id that is itself dialling, or that already has an
 * open connection of that kind it dialled itself, answers {@code DUPLICATE}, and the dialler waits
 * for the other connection instead, asking again after a short while in case the acceptor's
 * connection was one whose end at the dialler is already gone ({@link Dialler}). So a pair ends
 * with one connection, decided before any frame flows. Any other dial from a peer this side still
 * holds a connection to means the peer's end of that one is gone: it is closed here and the new
 * one taken.
 */
public final class Acceptor implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("io.polylink.method.tcp");
    /** Refusals name another remote each, so a few a second are worth reading. */
    private static final int REFUSALS_PER_SECOND = 20;

    private final TcpSettings settings;
    private final MethodContext context;
    private final ProblemLog problems;
    private final Connections connections;
    private final IoLoop io;
    private final Heartbeats heartbeats;
    private final Set<InboundHandshake> handshakes = ConcurrentHashMap.newKeySet();
    private final ServerSocketChannel server;
    private final IoLoop loop;

    /**
     * Listens at the configured address and port, and accepts from now on.
     *
     * @param io the I/O loop that reads accepted connections
     * @throws IOException if it cannot listen there
     */
    public Acceptor(TcpSettings settings, MethodContext context, Connections connections, IoLoop io,
                    Heartbeats heartbeats) throws IOException {
        this.settings = settings;
        this.context = context;
        this.problems = context.problems();
        this.connections = connections;
        this.io = io;
        this.heartbeats = heartbeats;
        this.server = ServerSocketChannel.open();
        try {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(new InetSocketAddress(InetAddress.getByName(settings.bindAddress()), settings.port()), 128);
            server.configureBlocking(false);
            this.loop = new IoLoop("polylink-tcp-accept", IdleStrategy.BLOCK, 0, held -> expireHandshakes());
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        loop.execute(() -> loop.register(server, SelectionKey.OP_ACCEPT, key -> {
            accept();
            return true;
        }));
    }

    /** @return where it listens */
    public InetSocketAddress localAddress() throws IOException {
        return (InetSocketAddress) server.getLocalAddress();
    }

    private void accept() {
        try {
            SocketChannel channel;
            while ((channel = server.accept()) != null) {
                channel.configureBlocking(false);
                SocketOptions.apply(channel, settings.link());
                InboundHandshake handshake = new InboundHandshake(this, channel,
                    System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.link().connectTimeoutMs()));
                handshakes.add(handshake);
                loop.register(channel, SelectionKey.OP_READ, handshake);
            }
        } catch (ClosedChannelException stopping) {
            // close() closed the listener under this thread: nothing failed, nothing to say
        } catch (IOException e) {
            problems.warn("accept failed", "tcp accept on " + settings.bindAddress() + " failed: " + e, null);
        }
    }

    /** A complete hello arrived; answer it and, if accepted, start the connection. */
    void accepted(SocketChannel channel, SelectionKey key, Handshake.Hello hello, InboundHandshake handshake)
            throws IOException {
        handshakes.remove(handshake);
        ContextId self = context.contextId();
        if (!hello.to().equals(self)) {
            answer(channel, Handshake.Status.WRONG_PEER);
            handshake.refuse(null, "it wants context " + hello.to() + ", this is " + self);
            return;
        }
        ConnectionKey peerKey = new ConnectionKey(hello.from(), hello.connectionClass());
        TcpSettings.Link link = settings.link().agreedWith(hello.heartbeatMs(), hello.failureMs());
        TcpConnection connection;
        TcpConnection replaced;
        synchronized (connections) {
            if (connections.stopped()) {
                channel.close();
                return;
            }
            TcpConnection existing = connections.open(peerKey);
            boolean selfLower = compare(self, hello.from()) < 0;
            boolean oursWins = selfLower && connections.dialling(peerKey);
            // A live connection this side dialled meets a dial from a peer with the higher id when
            // the two dials crossed: that peer accepts ours while it dials, and will use ours. A
            // peer with the lower id refuses ours while it dials, so it dials only when its end of
            // ours is gone (it closed it, as aead does when a session restarts) and this side has
            // not read the close yet: DUPLICATE would leave each side waiting out its connect
            // timeout for the other's connection. Such a connection is replaced below.
            boolean crossed = existing != null && !existing.dialledByPeer() && selfLower;
            if (oursWins || crossed) {
                answer(channel, Handshake.Status.DUPLICATE);
                channel.close();
                return;
            }
            // A peer dials only when it holds no open connection of this kind, so a live one here
            // is gone at its end (its method was replaced, say, or it closed ours) though this
            // side has not read the close yet: DUPLICATE would leave the peer waiting out its
            // connect timeout for a connection nobody dials.
            replaced = existing;
            connection = new TcpConnection(channel, hello.from(), true, peerKey.connectionClass(), link,
                context.maxFrameSize(), io, connections);
            // Off the acceptor before the peer may send: its first frame is read by the I/O thread.
            key.cancel();
            // The welcome goes before the connection is published: from then on this side may send
            // on it (links leaving the replaced one do at once), and a frame ahead of the welcome
            // is a stranger's bytes to the dialler, which drops the socket; the connection, never
            // started, then tells nobody when it closes, and links on it wait for good.
            answer(channel, Handshake.Status.ACCEPTED);
            connections.heard(hello.from());
            connections.publish(peerKey, connection);
        }
        heartbeats.now();
        if (replaced != null) {
            replaced.fail(new IOException("context " + hello.from() + " dialled again, so its end of this "
                + "connection is gone"));
        }
        connection.start(context.inbound().open(connection));
    }

    /** Writes the handshake's answer, which a fresh socket always has room for. */
    void answer(SocketChannel channel, Handshake.Status status) throws IOException {
        ByteBuffer welcome = Handshake.welcome(status, context.contextId());
        channel.write(welcome);
        if (welcome.hasRemaining()) {
            throw new IOException("could not write the " + Handshake.WELCOME_LENGTH + "-byte handshake answer");
        }
    }

    /** The handshake ended without a connection: one log line names the remote and why. */
    void refused(InboundHandshake handshake, String line) {
        handshakes.remove(handshake);
        problems.warn("refused connection", REFUSALS_PER_SECOND, line, null);
    }

    private static int compare(ContextId a, ContextId b) {
        int high = Long.compareUnsigned(a.high(), b.high());
        return high != 0 ? high : Long.compareUnsigned(a.low(), b.low());
    }

    /**
     * On the acceptor's thread: handshakes that took too long.
     *
     * @return nanoseconds until the next handshake's deadline; {@link IoLoop#NO_TIMERS} if none is
     *     under way, until one registers
     */
    private long expireHandshakes() {
        long now = System.nanoTime();
        long next = IoLoop.NO_TIMERS;
        for (InboundHandshake h : List.copyOf(handshakes)) {
            if (now - h.deadline() > 0) {
                h.refuse(null, "handshake not completed within " + settings.link().connectTimeoutMs() + " ms");
            } else {
                next = Math.min(next, h.deadline() - now);
            }
        }
        return next;
    }

    /** Stops listening and accepting; handshakes under way are dropped with their sockets. */
    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "closing the tcp listener failed: " + e.getMessage());
        }
        loop.close();
        handshakes.clear();
    }
}
