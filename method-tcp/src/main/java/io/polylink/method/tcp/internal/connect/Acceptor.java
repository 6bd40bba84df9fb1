package io.polylink.method.tcp.internal.connect;

import io.polylink.ContextId;
import io.polylink.method.tcp.internal.auth.PreSharedKey;
import io.polylink.method.tcp.internal.config.TcpSettings;
import io.polylink.method.tcp.internal.connection.FrameLimits;
import io.polylink.method.tcp.internal.connection.TcpConnection;
import io.polylink.method.tcp.internal.liveness.Heartbeats;
import io.polylink.method.tcp.internal.loop.IdleStrategy;
import io.polylink.method.tcp.internal.loop.IoHandler;
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
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Accepting, on a thread of its own ({@code polylink-tcp-accept}): the listening socket, and each
 * accepted socket until its handshake is answered ({@link InboundHandshake}).
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
 * with one connection, decided before any frame flows. Any other dial for a context this side
 * holds a live connection to is taken only once that connection is shown gone: probed until it
 * fails, for at most half the connect timeout ({@link InboundHandshake#probe}), else refused. A
 * peer dials only when its end of the old connection is gone, and a probe then fails within a
 * round trip; a stranger claiming a connected context's id is refused.
 *
 * <p>What one remote address may hold is bounded: handshakes under way and connections open
 * ({@link TcpSettings.Limits}). When accepting fails (the process is out of file descriptors),
 * accepting pauses, longer each time in a row, so the thread neither spins nor floods the log.
 */
public final class Acceptor implements AutoCloseable, IoHandler {

    private static final System.Logger LOG = System.getLogger("io.polylink.method.tcp");
    /** Refusals name another remote each, so a few a second are worth reading. */
    private static final int REFUSALS_PER_SECOND = 20;
    /**
     * Refusals of an address that has as many handshakes or connections as it may come in floods
     * from that address; a kind of their own, so they hide no other refusal.
     */
    private static final int BUSY_PER_SECOND = 5;
    private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long LONGEST_PAUSE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final TcpSettings settings;
    private final MethodContext context;
    private final ProblemLog problems;
    private final Connections connections;
    private final IoLoop io;
    private final Heartbeats heartbeats;
    private final FrameLimits frames;
    private final SecureRandom random = new SecureRandom();
    private final Set<InboundHandshake> handshakes = ConcurrentHashMap.newKeySet();
    /** Handshakes under way by remote address; the acceptor's thread only. */
    private final Map<InetAddress, Integer> handshaking = new HashMap<>();
    private final ServerSocketChannel server;
    private final IoLoop loop;
    private SelectionKey serverKey;
    /** While accepting is paused: how long this pause is, when it ends, and the accepts that failed in a row. */
    private long pauseNanos;
    private long resumeAt;
    private int failedAccepts;

    /**
     * Listens at the configured address and port, and accepts from now on.
     *
     * @param io the I/O loop that reads accepted connections
     * @param frames the bounds on the frames connections receive
     * @param stopped told if the accepting thread cannot go on
     * @throws IOException if it cannot listen there
     */
    public Acceptor(TcpSettings settings, MethodContext context, Connections connections, IoLoop io,
                    Heartbeats heartbeats, FrameLimits frames, Consumer<Throwable> stopped) throws IOException {
        this.settings = settings;
        this.context = context;
        this.problems = context.problems();
        this.connections = connections;
        this.io = io;
        this.heartbeats = heartbeats;
        this.frames = frames;
        this.server = ServerSocketChannel.open();
        try {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(new InetSocketAddress(InetAddress.getByName(settings.bindAddress()), settings.port()), 128);
            server.configureBlocking(false);
            this.loop = new IoLoop("polylink-tcp-accept", IdleStrategy.BLOCK, 0, held -> tick(), problems, stopped);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        loop.execute(() -> serverKey = loop.register(server, SelectionKey.OP_ACCEPT, this));
    }

    /** @return where it listens */
    public InetSocketAddress localAddress() throws IOException {
        return (InetSocketAddress) server.getLocalAddress();
    }

    /** The listening socket is ready: accepts what is waiting. */
    @Override
    public boolean ready(SelectionKey key) {
        accept();
        return true;
    }

    /** Accepting threw what it does not expect: accepting pauses, as after a failed accept. */
    @Override
    public void failed(Throwable cause) {
        pause(cause);
    }

    private void accept() {
        SocketChannel channel;
        try {
            while ((channel = server.accept()) != null) {
                pauseNanos = 0;
                failedAccepts = 0;
                take(channel);
            }
        } catch (ClosedChannelException stopping) {
            // close() closed the listener under this thread: nothing failed, nothing to say
        } catch (IOException e) {
            pause(e);
        }
    }

    /** Starts the handshake of an accepted socket, unless its address has as many under way as it may. */
    private void take(SocketChannel channel) {
        String remote = "an unknown address";
        try {
            InetSocketAddress from = (InetSocketAddress) channel.getRemoteAddress();
            remote = String.valueOf(from);
            int under = handshaking.getOrDefault(from.getAddress(), 0);
            if (under >= settings.limits().maxHandshakesPerSource()) {
                busy(channel, remote, under + " handshakes from that address are under way, the most it may have "
                    + "(maxHandshakesPerSource)");
                return;
            }
            channel.configureBlocking(false);
            SocketOptions.apply(channel, settings.link());
            InboundHandshake handshake = new InboundHandshake(this, channel, from,
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.link().connectTimeoutMs()));
            handshakes.add(handshake);
            handshaking.merge(from.getAddress(), 1, Integer::sum);
            if (loop.register(channel, SelectionKey.OP_READ, handshake) == null) {
                ended(handshake);
            }
        } catch (IOException e) {
            drop(channel, remote, e.getMessage(), null);
        } catch (RuntimeException e) {
            drop(channel, remote, "unexpected " + e, e);
        }
    }

    /** Answers {@code BUSY} and closes the socket, with a line of the busy addresses' own kind. */
    private void busy(SocketChannel channel, String remote, String why) {
        try (channel) {
            channel.write(Handshake.welcome(Handshake.Status.BUSY, context.contextId(), 0, 0));
        } catch (IOException gone) {
            // refused either way
        }
        problems.warn("busy address", BUSY_PER_SECOND, "refused tcp connection from " + remote + ": " + why, null);
    }

    /** Closes an accepted socket before its handshake began, with one log line naming the remote and why. */
    private void drop(SocketChannel channel, String remote, String why, Throwable cause) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // refused either way
        }
        problems.warn("refused connection", REFUSALS_PER_SECOND, "refused tcp connection from " + remote + ": " + why,
            cause);
    }

    /** Accepting failed: no more accepts until a pause, longer each time in a row, has passed. */
    private void pause(Throwable cause) {
        failedAccepts++;
        pauseNanos = pauseNanos == 0 ? FIRST_PAUSE_NANOS : Math.min(LONGEST_PAUSE_NANOS, 2 * pauseNanos);
        resumeAt = System.nanoTime() + pauseNanos;
        if (serverKey != null && serverKey.isValid()) {
            serverKey.interestOps(0);
        }
        loop.tickNow(); // the tick resumes accepting; it may have had no timers until now
        problems.warn("accept failed", "tcp cannot accept connections on " + settings.bindAddress() + ":"
            + server.socket().getLocalPort() + ": " + cause + "; accepting again in "
            + TimeUnit.NANOSECONDS.toMillis(pauseNanos) + " ms (" + failedAccepts + " failed in a row)",
            cause instanceof IOException ? null : cause);
    }

    /**
     * On the acceptor's thread: accepting again after a pause, handshakes that took too long, and
     * the probes of connections that dials claim.
     *
     * @return nanoseconds until the next is due; {@link IoLoop#NO_TIMERS} if nothing is under way
     */
    private long tick() {
        long now = System.nanoTime();
        long next = IoLoop.NO_TIMERS;
        if (pauseNanos != 0) {
            if (now - resumeAt >= 0) {
                if (serverKey != null && serverKey.isValid()) {
                    serverKey.interestOps(SelectionKey.OP_ACCEPT);
                }
            } else {
                next = resumeAt - now;
            }
        }
        for (InboundHandshake h : List.copyOf(handshakes)) {
            try {
                next = Math.min(next, h.tick(now));
            } catch (Throwable e) {
                problems.warn("failed handshake", "polylink-tcp-accept dropped " + h + " after an unexpected " + e, e);
                h.refuse("unexpected " + e);
            }
        }
        return next;
    }

    /**
     * The dialler is who it says it is, as far as this node can tell (with a key, it proved it
     * holds it): answers it, and starts its connection if it may have one.
     */
    void admit(InboundHandshake handshake) throws IOException {
        Handshake.Hello hello = handshake.hello();
        SocketChannel channel = handshake.channel();
        ContextId self = context.contextId();
        ConnectionKey peerKey = new ConnectionKey(hello.from(), hello.connectionClass());
        TcpSettings.Link link = settings.limits().agree(settings.link(), hello.heartbeatMs(), hello.failureMs());
        TcpConnection connection;
        synchronized (connections) {
            if (connections.stopped()) {
                ended(handshake);
                channel.close();
                return;
            }
            int open = connections.acceptedFrom(handshake.source());
            if (open >= settings.limits().maxConnectionsPerSource()) {
                handshake.key().cancel();
                ended(handshake);
                busy(channel, String.valueOf(handshake.remote()), open + " connections from that address are open, "
                    + "the most it may have (maxConnectionsPerSource)");
                return;
            }
            TcpConnection existing = connections.open(peerKey);
            boolean selfLower = compare(self, hello.from()) < 0;
            // A dial from a peer with the higher id meets this side dialling it, or a live
            // connection this side dialled: the dials crossed, and the peer will use this side's.
            if (selfLower && (connections.dialling(peerKey) || existing != null && !existing.dialledByPeer())) {
                handshake.answer(Handshake.Status.DUPLICATE);
                ended(handshake);
                channel.close();
                return;
            }
            if (existing != null) {
                handshake.probe(existing, System.nanoTime());
                loop.tickNow();
                return;
            }
            connection = new TcpConnection(channel, hello.from(), true, peerKey.connectionClass(), link, frames, io,
                connections);
            // Off the acceptor before the peer may send: its first frame is read by the I/O thread.
            handshake.key().cancel();
            // The welcome goes before the connection is published: from then on this side may send
            // on it, and a frame ahead of the welcome is a stranger's bytes to the dialler, which
            // drops the socket; the connection, never started, then tells nobody when it closes,
            // and links on it wait for good.
            answer(channel, Handshake.welcome(Handshake.Status.ACCEPTED, self, link.heartbeatIntervalMs(),
                link.failureTimeoutMs()));
            connections.heard(hello.from());
            connections.publish(peerKey, connection);
        }
        ended(handshake);
        heartbeats.now();
        connection.start(context.inbound().open(connection));
    }

    /** Writes a handshake message, which a fresh socket always has room for. */
    void answer(SocketChannel channel, ByteBuffer message) throws IOException {
        int length = message.remaining();
        channel.write(message);
        if (message.hasRemaining()) {
            throw new IOException("could not write the " + length + "-byte handshake answer");
        }
    }

    /** The handshake ended without a connection: one log line names the remote and why. */
    void refused(InboundHandshake handshake, String line) {
        ended(handshake);
        problems.warn("refused connection", REFUSALS_PER_SECOND, line, null);
    }

    /** The handshake ended, one way or another: its address may start another. */
    private void ended(InboundHandshake handshake) {
        if (handshakes.remove(handshake)) {
            handshaking.computeIfPresent(handshake.source(), (source, n) -> n == 1 ? null : n - 1);
        }
    }

    /** @return this context's id */
    ContextId self() {
        return context.contextId();
    }

    /** @return the key dialling peers prove they hold; {@code null} for none */
    PreSharedKey key() {
        return settings.key();
    }

    /** @return a fresh nonce for a challenge */
    byte[] nonce() {
        byte[] nonce = new byte[Handshake.NONCE_LENGTH];
        random.nextBytes(nonce);
        return nonce;
    }

    int connectTimeoutMs() {
        return settings.link().connectTimeoutMs();
    }

    /** @return how long a live connection a dial claims is probed: half the connect timeout, so the dialler hears in time */
    long probeNanos() {
        return TimeUnit.MILLISECONDS.toNanos(settings.link().connectTimeoutMs()) / 2;
    }

    private static int compare(ContextId a, ContextId b) {
        int high = Long.compareUnsigned(a.high(), b.high());
        return high != 0 ? high : Long.compareUnsigned(a.low(), b.low());
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

    @Override
    public String toString() {
        return "tcp listener on " + settings.bindAddress() + ":" + server.socket().getLocalPort();
    }
}
