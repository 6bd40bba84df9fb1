package io.polylink.method.tcp.internal.connect;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.method.tcp.internal.address.TcpAddress;
import io.polylink.method.tcp.internal.config.TcpSettings;
import io.polylink.method.tcp.internal.connection.FrameLimits;
import io.polylink.method.tcp.internal.connection.TcpConnection;
import io.polylink.method.tcp.internal.liveness.Heartbeats;
import io.polylink.method.tcp.internal.loop.IoLoop;
import io.polylink.spi.Connection;
import io.polylink.spi.MethodContext;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Dialling, on the thread that asks for a connection (a sender's, or the core's): each of the
 * peer's addresses in turn, the handshake, and the wait for the peer's own connection when both
 * dial at once and the peer's wins (see {@link Acceptor}). A peer gone silent is dialled in the
 * background ({@code polylink-tcp-dial}) instead, never on a sender's thread.
 */
public final class Dialler implements AutoCloseable {

    /** How long a dial answered {@code DUPLICATE} first waits for the peer's connection before asking again. */
    private static final long FIRST_REDIAL_NANOS = TimeUnit.MILLISECONDS.toNanos(25);

    private final TcpSettings settings;
    private final MethodContext context;
    private final Connections connections;
    private final IoLoop loop;
    private final Heartbeats heartbeats;
    private final FrameLimits frames;
    private final SecureRandom random = new SecureRandom();
    /** Dials to silent peers under way in the background; interrupted by {@link #close}. */
    private final Set<Thread> background = ConcurrentHashMap.newKeySet();

    /**
     * @param settings the method's parameters; a link may override those of its own
     * @param context the core's side
     * @param connections where dialled connections go
     * @param loop the I/O loop that reads them
     * @param heartbeats started again for each new connection
     * @param frames the bounds on the frames connections receive
     */
    public Dialler(TcpSettings settings, MethodContext context, Connections connections, IoLoop loop,
                   Heartbeats heartbeats, FrameLimits frames) {
        this.settings = settings;
        this.context = context;
        this.connections = connections;
        this.loop = loop;
        this.heartbeats = heartbeats;
        this.frames = frames;
    }

    /** See {@link io.polylink.spi.CommunicationMethod#connect}. */
    public Connection connect(ContextId peer, byte[] address, Map<String, String> parameters) {
        TcpSettings.Link link = settings.link().with(parameters);
        ConnectionKey key = ConnectionKey.dialled(peer, parameters);
        List<InetSocketAddress> targets = TcpAddress.decode(address);
        synchronized (connections) {
            if (connections.stopped()) {
                throw new LinkException("the tcp method is stopped: no connection to " + peer);
            }
            TcpConnection existing = connections.open(key);
            if (existing != null) {
                return existing;
            }
            String refusal = connections.refusal(peer, () -> dialInBackground(key, targets, link));
            if (refusal != null) {
                throw new LinkException(refusal);
            }
            connections.dialStarted(key);
        }
        return dialAny(key, targets, link);
    }

    /** Monitor of {@link #connections} held. */
    private void dialInBackground(ConnectionKey key, List<InetSocketAddress> targets, TcpSettings.Link link) {
        connections.dialStarted(key);
        Thread dial = new Thread(() -> {
            try {
                dialAny(key, targets, link);
            } catch (LinkException e) {
                // dialAny noted whether the peer is still silent; senders hear the rest from their own dials
            } catch (Throwable e) {
                context.problems().warn("failed dial", "polylink-tcp-dial to context " + key.peer()
                    + " ended with an unexpected " + e, e);
            } finally {
                background.remove(Thread.currentThread());
            }
        }, "polylink-tcp-dial");
        dial.setDaemon(true);
        background.add(dial);
        dial.start();
    }

    /**
     * Dials each of the peer's addresses in turn until one answers; the dial was started in
     * {@link #connections} already. A peer none of whose addresses answered in time is marked silent.
     */
    private Connection dialAny(ConnectionKey key, List<InetSocketAddress> targets, TcpSettings.Link link) {
        List<String> failures = new ArrayList<>();
        boolean unanswered = false;
        Connection connection = null;
        try {
            for (InetSocketAddress target : targets) {
                try {
                    connection = dial(target, key, link);
                    return connection;
                } catch (ConnectException e) {
                    failures.add("connection refused " + TcpAddress.describe(target));
                } catch (SocketTimeoutException e) {
                    unanswered = true;
                    failures.add("no answer from " + TcpAddress.describe(target) + " within "
                        + link.connectTimeoutMs() + " ms");
                } catch (IOException e) {
                    failures.add(TcpAddress.describe(target) + ": " + e.getMessage());
                } catch (LinkException e) {
                    failures.add(e.getMessage());
                }
            }
        } finally {
            synchronized (connections) {
                connections.dialEnded(key, connection == null && unanswered, link.connectTimeoutMs(),
                    link.failureTimeoutMs());
            }
        }
        throw new LinkException(String.join("; ", failures));
    }

    /** Dials {@code target} until it gives a connection or the connect timeout has passed. */
    private Connection dial(InetSocketAddress target, ConnectionKey key, TcpSettings.Link link) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(link.connectTimeoutMs());
        for (long patience = FIRST_REDIAL_NANOS; ; patience *= 2) {
            Connection connection = dialOnce(target, key, link, deadline, patience);
            if (connection != null) {
                return connection;
            }
        }
    }

    /**
     * @param patience how long to wait for the peer's connection if it answers {@code DUPLICATE}
     * @return the connection, or {@code null} to dial again
     */
    private Connection dialOnce(InetSocketAddress target, ConnectionKey key, TcpSettings.Link link, long deadline,
                                long patience) throws IOException {
        int timeoutMs = (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
        SocketChannel channel = SocketChannel.open();
        boolean handedOver = false;
        try {
            SocketOptions.apply(channel, link);
            channel.socket().connect(target, timeoutMs);
            channel.socket().setSoTimeout(timeoutMs);
            byte[] nonce = new byte[Handshake.NONCE_LENGTH];
            random.nextBytes(nonce);
            ByteBuffer hello = Handshake.hello(settings.key() != null, context.contextId(), key.peer(),
                key.connectionClass(), link.heartbeatIntervalMs(), link.failureTimeoutMs(), nonce);
            String where = TcpAddress.describe(target);
            Handshake.Welcome welcome = new OutboundHandshake(channel, where).exchange(hello, key.peer(), settings.key());
            switch (welcome.status()) {
                case ACCEPTED -> {
                    if (!welcome.from().equals(key.peer())) {
                        throw wrongPeer(where, welcome.from(), key.peer());
                    }
                    channel.socket().setSoTimeout(0);
                    channel.configureBlocking(false);
                    TcpSettings.Link agreed = settings.limits().agree(link, welcome.heartbeatMs(), welcome.failureMs());
                    TcpConnection connection = new TcpConnection(channel, key.peer(), false, key.connectionClass(),
                        agreed, frames, loop, connections);
                    synchronized (connections) {
                        if (connections.stopped()) {
                            throw new LinkException("the tcp method stopped while connecting to " + where);
                        }
                        connections.publish(key, connection);
                    }
                    heartbeats.now();
                    handedOver = true;
                    connection.start(context.inbound().open(connection));
                    return connection;
                }
                case DUPLICATE -> {
                    return awaitTheirs(key, link, where, deadline, patience);
                }
                case WRONG_PEER -> throw wrongPeer(where, welcome.from(), key.peer());
                default -> throw refused(where, welcome.status(), key.peer());
            }
        } finally {
            if (!handedOver) {
                channel.close();
            }
        }
    }

    /** @return why the acceptor at {@code where} refused this side's dial, and what to do */
    private LinkException refused(String where, Handshake.Status status, ContextId peer) {
        return new LinkException("peer at " + where + " refused the connection: " + switch (status) {
            case IN_USE -> "it holds a live connection from context " + context.contextId() + " with these link "
                + "parameters, or is that context itself (another process may claim this context's id, or the old "
                + "connection is not yet known to be gone there); the link tries again later";
            case KEY_REQUIRED -> "it requires a tcp pre-shared key (psk), and this node has none; configure the same "
                + "key on both";
            case NO_KEY -> "it has no tcp pre-shared key, and this node has one; a node with a key connects only with "
                + "nodes that hold the same";
            case AUTH_FAILED -> "this node's proof does not match its tcp pre-shared key: the keys differ";
            case BUSY -> "this node's address has as many connections or handshakes there as it allows";
            default -> "it speaks another tcp protocol version than " + Handshake.VERSION + "; upgrade the older side";
        });
    }

    static LinkException wrongPeer(String where, ContextId found, ContextId wanted) {
        return new LinkException(where + " belongs to context " + found + ", not " + wanted
            + " (the peer restarted, or its address was reused); get a fresh startpoint");
    }

    /**
     * The peer is dialling us at the same time and its connection wins: wait for it. A peer with
     * the lower id also answers so while it still holds a connection it dialled whose end here is
     * gone (this side closed it and has not heard back): that peer dials only once it reads the
     * close, and only if it has something to send, so after {@code patience} this side asks again.
     *
     * @return the peer's connection, or {@code null} to dial again
     */
    private Connection awaitTheirs(ConnectionKey key, TcpSettings.Link link, String where, long deadline,
                                   long patience) {
        long askAgain = System.nanoTime() + patience;
        synchronized (connections) {
            TcpConnection theirs;
            try {
                theirs = connections.awaitOpen(key, askAgain - deadline < 0 ? askAgain : deadline);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LinkException("interrupted while connecting to " + where, e);
            }
            if (theirs != null) {
                return theirs;
            }
            if (System.nanoTime() - deadline >= 0 || connections.stopped()) {
                throw new LinkException("peer at " + where + " is connecting to us at the same time, but its "
                    + "connection did not arrive within " + link.connectTimeoutMs() + " ms");
            }
            return null;
        }
    }

    /** Interrupts the dials under way in the background: an interrupt closes the channel each waits on. */
    @Override
    public void close() {
        background.forEach(Thread::interrupt);
    }
}
