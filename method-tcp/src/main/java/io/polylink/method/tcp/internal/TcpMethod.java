package io.polylink.method.tcp.internal;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.MalformedMessageException;
import io.polylink.Statistics;
import io.polylink.spi.Applicability;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.spi.MethodContext;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The {@code tcp} method: one listening socket, one connection per peer context (and per set of
 * link parameters), one I/O thread running the connections' selector, one thread accepting and
 * answering handshakes, one timer thread for heartbeats.
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
 * connection was one whose end at the dialler is already gone. So a pair ends with one
 * connection, decided before any frame flows. Any other dial from a peer this side still holds a
 * connection to means the peer's end of that one is gone: it is closed here and the new one taken.
 */
@Component(service = CommunicationMethod.class, configurationPid = "io.polylink.method.tcp",
    property = {CommunicationMethod.NAME_PROPERTY + "=" + TcpMethod.NAME,
        CommunicationMethod.PREFERENCE_PROPERTY + ":Integer=50"})
@Designate(ocd = TcpConfig.class)
public final class TcpMethod implements CommunicationMethod {

    static final String NAME = "tcp";
    private static final System.Logger LOG = System.getLogger("io.polylink.method.tcp");
    /** How often the heartbeat timer looks when no connection needs it sooner; a new one wakes it. */
    private static final long IDLE_BEAT_CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** How long a dial answered {@code DUPLICATE} first waits for the peer's connection before asking again. */
    private static final long FIRST_REDIAL_NANOS = TimeUnit.MILLISECONDS.toNanos(25);

    /** What makes two connections to one peer distinct. */
    private record Key(ContextId peer, int connectionClass) {}

    private final TcpSettings settings;
    private final Object connectLock = new Object();
    private final Map<Key, TcpConnection> established = new HashMap<>();
    private final Set<Key> dialling = new HashSet<>();
    private final SilentPeers silent = new SilentPeers();
    /** Dials to silent peers under way in the background; interrupted by {@link #stop}. */
    private final Set<Thread> backgroundDials = ConcurrentHashMap.newKeySet();
    /**
     * Set by {@link #stop} as it takes the connections to close, guarded by {@link #connectLock}:
     * a dial or an accept finishing later closes its socket instead of adding a connection nobody
     * would close.
     */
    private boolean stopped;
    private final Set<InboundHandshake> handshakes = ConcurrentHashMap.newKeySet();
    private final LogLimiter limiter = new LogLimiter(20);
    private final Object totalsLock = new Object();
    private Statistics closedTotals = Statistics.ZERO;
    private volatile MethodContext context;
    private volatile IoLoop loop;
    private volatile IoLoop acceptor;
    private volatile ScheduledExecutorService timer;
    /** The heartbeat run whose successor is scheduled; a new connection starts another, ending this one. */
    private final AtomicInteger beats = new AtomicInteger();
    private ServerSocketChannel server;
    private byte[] address;
    private List<InetSocketAddress> advertised;

    /** For Declarative Services: the configuration's properties, keyed as {@link TcpConfig}. */
    @Activate
    public TcpMethod(Map<String, Object> properties) {
        this(TcpSettingsParser.parse(properties));
    }

    TcpMethod(TcpSettings settings) {
        this.settings = settings;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public synchronized void start(MethodContext context) throws IOException {
        this.context = context;
        synchronized (connectLock) {
            stopped = false;
        }
        long spinNanos = TimeUnit.MICROSECONDS.toNanos(settings.spinMicros());
        loop = new IoLoop("polylink-tcp-io", settings.idleStrategy(), spinNanos, this::tick);
        try {
            acceptor = new IoLoop("polylink-tcp-accept", IdleStrategy.BLOCK, 0, held -> expireHandshakes());
            server = ServerSocketChannel.open();
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(new InetSocketAddress(InetAddress.getByName(settings.bindAddress()), settings.port()), 128);
            server.configureBlocking(false);
            advertised = Advertised.addresses(settings, (InetSocketAddress) server.getLocalAddress());
            address = TcpAddress.encode(advertised);
            IoLoop accepting = acceptor;
            ServerSocketChannel listening = server; // if stop() closed it first, nothing registers
            accepting.execute(() -> accepting.register(listening, SelectionKey.OP_ACCEPT, key -> {
                accept();
                return true;
            }));
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "polylink-tcp-timer");
                t.setDaemon(true);
                return t;
            });
            heartbeatsNow();
        } catch (IOException | RuntimeException e) {
            stop();
            throw new IOException("tcp cannot listen on " + settings.bindAddress() + ":" + settings.port()
                + ": " + e.getMessage(), e);
        }
    }

    @Deactivate
    @Override
    public synchronized void stop() {
        if (timer != null) {
            timer.shutdownNow();
            try {
                timer.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            timer = null;
        }
        List<TcpConnection> open;
        synchronized (connectLock) {
            stopped = true;
            open = new ArrayList<>(established.values());
            connectLock.notifyAll();
        }
        open.forEach(TcpConnection::close);
        backgroundDials.forEach(Thread::interrupt); // an interrupt closes the channel it waits on
        if (server != null) {
            try {
                server.close();
            } catch (IOException e) {
                LOG.log(Level.WARNING, "closing the tcp listener failed: " + e.getMessage());
            }
        }
        if (acceptor != null) {
            acceptor.close();
            acceptor = null;
        }
        if (loop != null) {
            loop.close();
            loop = null;
        }
        handshakes.clear();
        server = null;
    }

    @Override
    public byte[] localAddress() {
        return address.clone();
    }

    @Override
    public Applicability applicable(ContextId peer, byte[] address) {
        try {
            return Applicability.yes("reachable at " + TcpAddress.describe(TcpAddress.decode(address)));
        } catch (MalformedMessageException e) {
            return Applicability.no(e.getMessage());
        }
    }

    @Override
    public String describe(byte[] address) {
        try {
            return TcpAddress.describe(TcpAddress.decode(address));
        } catch (MalformedMessageException e) {
            return "(" + e.getMessage() + ")";
        }
    }

    IoLoop loop() {
        return loop;
    }

    int connectionCount() {
        synchronized (connectLock) {
            return (int) established.values().stream().filter(TcpConnection::isOpen).count();
        }
    }

    // ---- dialling

    @Override
    public Connection connect(ContextId peer, byte[] address, Map<String, String> parameters) {
        TcpSettings.Link link = settings.link().with(parameters);
        Key key = new Key(peer, parameters.isEmpty() ? 0 : new TreeMap<>(parameters).hashCode());
        List<InetSocketAddress> targets = TcpAddress.decode(address);
        synchronized (connectLock) {
            if (stopped) {
                throw new LinkException("the tcp method is stopped: no connection to " + peer);
            }
            TcpConnection existing = established.get(key);
            if (existing != null && existing.isOpen()) {
                return existing;
            }
            String refusal = silent.refusal(peer, () -> dialInBackground(key, targets, link));
            if (refusal != null) {
                throw new LinkException(refusal);
            }
            dialling.add(key);
        }
        return dialAny(key, targets, link);
    }

    /** Caller holds {@link #connectLock}. */
    private void dialInBackground(Key key, List<InetSocketAddress> targets, TcpSettings.Link link) {
        dialling.add(key);
        Thread dial = new Thread(() -> {
            try {
                dialAny(key, targets, link);
            } catch (LinkException e) {
                // dialAny noted whether the peer is still silent; senders hear the rest from their own dials
            } finally {
                backgroundDials.remove(Thread.currentThread());
            }
        }, "polylink-tcp-dial");
        dial.setDaemon(true);
        backgroundDials.add(dial);
        dial.start();
    }

    /**
     * Dials each of the peer's addresses in turn until one answers; {@link #dialling} holds the
     * key already. A peer none of whose addresses answered in time is marked silent.
     */
    private Connection dialAny(Key key, List<InetSocketAddress> targets, TcpSettings.Link link) {
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
            synchronized (connectLock) {
                dialling.remove(key);
                if (connection == null && unanswered) {
                    silent.mark(key.peer(), "it answered no dial within " + link.connectTimeoutMs() + " ms",
                        TimeUnit.MILLISECONDS.toNanos(link.failureTimeoutMs()));
                } else {
                    silent.forget(key.peer());
                }
            }
        }
        throw new LinkException(String.join("; ", failures));
    }

    /** A connection to {@code peer} was closed for silence: see {@link SilentPeers}. */
    void silent(ContextId peer, int failureTimeoutMs) {
        synchronized (connectLock) {
            silent.mark(peer, "no heartbeat for " + failureTimeoutMs + " ms",
                TimeUnit.MILLISECONDS.toNanos(failureTimeoutMs));
        }
    }

    /** Dials {@code target} until it gives a connection or the connect timeout has passed. */
    private Connection dial(InetSocketAddress target, Key key, TcpSettings.Link link) throws IOException {
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
    private Connection dialOnce(InetSocketAddress target, Key key, TcpSettings.Link link, long deadline, long patience)
            throws IOException {
        int timeoutMs = (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
        SocketChannel channel = SocketChannel.open();
        boolean handedOver = false;
        try {
            configure(channel, link);
            channel.socket().connect(target, timeoutMs);
            channel.socket().setSoTimeout(timeoutMs);
            ByteBuffer hello = Handshake.hello(context.contextId(), key.peer(), key.connectionClass(),
                link.heartbeatIntervalMs(), link.failureTimeoutMs());
            while (hello.hasRemaining()) {
                channel.write(hello);
            }
            ByteBuffer reply = ByteBuffer.wrap(channel.socket().getInputStream().readNBytes(Handshake.WELCOME_LENGTH));
            String where = TcpAddress.describe(target);
            if (reply.remaining() < 4 || Handshake.checkMagic(reply, 0) != null) {
                throw new LinkException(where + " is " + (reply.remaining() < 4 ? "not answering the handshake"
                    : Handshake.checkMagic(reply, 0)));
            }
            if (reply.remaining() >= 5 && Handshake.version(reply, 0) != Handshake.VERSION) {
                throw new LinkException("peer at " + where + " speaks tcp protocol version "
                    + Handshake.version(reply, 0) + ", this context " + Handshake.VERSION + "; upgrade the older side");
            }
            Handshake.Welcome welcome = reply.remaining() == Handshake.WELCOME_LENGTH
                ? Handshake.readWelcome(reply, 0) : null;
            if (welcome == null) {
                throw new LinkException(where + " answered the handshake with garbage");
            }
            switch (welcome.status()) {
                case ACCEPTED -> {
                    if (!welcome.from().equals(key.peer())) {
                        throw wrongPeer(where, welcome.from(), key.peer());
                    }
                    channel.socket().setSoTimeout(0);
                    channel.configureBlocking(false);
                    TcpConnection connection = new TcpConnection(this, channel, key.peer(), link,
                        key.connectionClass(), context.maxFrameSize(), false);
                    IoLoop io;
                    synchronized (connectLock) {
                        if (stopped) {
                            throw new LinkException("the tcp method stopped while connecting to " + where);
                        }
                        io = loop;
                        established.put(key, connection);
                        connectLock.notifyAll();
                    }
                    heartbeatsNow();
                    handedOver = true;
                    connection.start(context.inbound().open(connection), io);
                    return connection;
                }
                case DUPLICATE -> {
                    return awaitTheirs(key, link, where, deadline, patience);
                }
                case WRONG_PEER -> throw wrongPeer(where, welcome.from(), key.peer());
                default -> throw new LinkException("peer at " + where + " refused tcp protocol version "
                    + Handshake.VERSION + "; upgrade the older side");
            }
        } finally {
            if (!handedOver) {
                channel.close();
            }
        }
    }

    private static LinkException wrongPeer(String where, ContextId found, ContextId wanted) {
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
    private Connection awaitTheirs(Key key, TcpSettings.Link link, String where, long deadline, long patience) {
        long askAgain = System.nanoTime() + patience;
        synchronized (connectLock) {
            while (true) {
                TcpConnection theirs = established.get(key);
                if (theirs != null && theirs.isOpen()) {
                    return theirs;
                }
                long now = System.nanoTime();
                if (now - deadline >= 0 || loop == null) {
                    throw new LinkException("peer at " + where + " is connecting to us at the same time, but its "
                        + "connection did not arrive within " + link.connectTimeoutMs() + " ms");
                }
                if (now - askAgain >= 0) {
                    return null;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(connectLock, Math.min(deadline, askAgain) - now);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new LinkException("interrupted while connecting to " + where, e);
                }
            }
        }
    }

    private static void configure(SocketChannel channel, TcpSettings.Link link) throws IOException {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, link.tcpNoDelay());
        if (link.sendBuffer() > 0) {
            channel.setOption(StandardSocketOptions.SO_SNDBUF, link.sendBuffer());
        }
        if (link.receiveBuffer() > 0) {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, link.receiveBuffer());
        }
    }

    // ---- accepting, on the acceptor's thread

    private void accept() {
        try {
            SocketChannel channel;
            while ((channel = server.accept()) != null) {
                channel.configureBlocking(false);
                configure(channel, settings.link());
                InboundHandshake handshake = new InboundHandshake(this, channel,
                    System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.link().connectTimeoutMs()));
                handshakes.add(handshake);
                acceptor.register(channel, SelectionKey.OP_READ, handshake);
            }
        } catch (ClosedChannelException stopping) {
            // stop() closed the listener under this thread: nothing failed, nothing to say
        } catch (IOException e) {
            LOG.log(Level.WARNING, "tcp accept on " + settings.bindAddress() + " failed: " + e);
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
        Key peerKey = new Key(hello.from(), hello.connectionClass());
        TcpSettings.Link link = new TcpSettings.Link(settings.link().tcpNoDelay(), settings.link().sendBuffer(),
            settings.link().receiveBuffer(), settings.link().queueLimit(), settings.link().sendTimeoutMs(),
            settings.link().connectTimeoutMs(),
            Math.min(settings.link().heartbeatIntervalMs(), Math.max(1, hello.heartbeatMs())),
            Math.max(settings.link().failureTimeoutMs(), hello.failureMs()));
        TcpConnection connection;
        TcpConnection replaced;
        IoLoop io;
        synchronized (connectLock) {
            if (stopped) {
                channel.close();
                return;
            }
            io = loop;
            TcpConnection existing = established.get(peerKey);
            boolean live = existing != null && existing.isOpen();
            boolean selfLower = compare(self, hello.from()) < 0;
            boolean oursWins = selfLower && dialling.contains(peerKey);
            // A live connection this side dialled meets a dial from a peer with the higher id when
            // the two dials crossed: that peer accepts ours while it dials, and will use ours. A
            // peer with the lower id refuses ours while it dials, so it dials only when its end of
            // ours is gone (it closed it, as aead does when a session restarts) and this side has
            // not read the close yet: DUPLICATE would leave each side waiting out its connect
            // timeout for the other's connection. Such a connection is replaced below.
            boolean crossed = live && !existing.dialledByPeer() && selfLower;
            if (oursWins || crossed) {
                answer(channel, Handshake.Status.DUPLICATE);
                channel.close();
                return;
            }
            // A peer dials only when it holds no open connection of this kind, so a live one here
            // is gone at its end (its method was replaced, say, or it closed ours) though this
            // side has not read the close yet: DUPLICATE would leave the peer waiting out its
            // connect timeout for a connection nobody dials.
            replaced = live ? existing : null;
            connection = new TcpConnection(this, channel, hello.from(), link, peerKey.connectionClass(),
                context.maxFrameSize(), true);
            // Off the acceptor before the peer may send: its first frame is read by the I/O thread.
            key.cancel();
            // The welcome goes before the connection is published: from then on this side may send
            // on it (links leaving the replaced one do at once), and a frame ahead of the welcome
            // is a stranger's bytes to the dialler, which drops the socket; the connection, never
            // started, then tells nobody when it closes, and links on it wait for good.
            answer(channel, Handshake.Status.ACCEPTED);
            silent.forget(hello.from()); // it speaks again
            established.put(peerKey, connection);
            connectLock.notifyAll();
        }
        heartbeatsNow();
        if (replaced != null) {
            replaced.fail(new IOException("context " + hello.from() + " dialled again, so its end of this "
                + "connection is gone"));
        }
        connection.start(context.inbound().open(connection), io);
    }

    void answer(SocketChannel channel, Handshake.Status status) throws IOException {
        ByteBuffer welcome = Handshake.welcome(status, context.contextId());
        channel.write(welcome);
        if (welcome.hasRemaining()) {
            throw new IOException("could not write the 23-byte handshake answer");
        }
    }

    void forget(InboundHandshake handshake) {
        handshakes.remove(handshake);
    }

    private static int compare(ContextId a, ContextId b) {
        int high = Long.compareUnsigned(a.high(), b.high());
        return high != 0 ? high : Long.compareUnsigned(a.low(), b.low());
    }

    // ---- timers

    /**
     * On the I/O thread: dead peers, and buffers unused for long. Time the loop was held (a long
     * inline handler) is not the peers' fault, so their clocks are moved on by it first.
     *
     * @param held nanoseconds the loop was held since the last tick
     * @return nanoseconds until the next connection's check is due; {@link IoLoop#NO_TIMERS} if there
     *     is none, until one registers
     */
    private long tick(long held) {
        long now = System.nanoTime();
        long next = IoLoop.NO_TIMERS;
        for (TcpConnection c : snapshot()) {
            if (held > 0) {
                c.excuse(held);
            }
            next = Math.min(next, c.checkLiveness(now));
        }
        return next;
    }

    /**
     * On the acceptor's thread: handshakes that took too long.
     *
     * @return nanoseconds until the next handshake's deadline; {@link IoLoop#NO_TIMERS} if none is under
     *     way, until one registers
     */
    private long expireHandshakes() {
        long now = System.nanoTime();
        long next = IoLoop.NO_TIMERS;
        for (InboundHandshake h : List.copyOf(handshakes)) {
            if (now - h.deadline() > 0) {
                h.refuse(null, "handshake not completed within "
                    + settings.link().connectTimeoutMs() + " ms");
            } else {
                next = Math.min(next, h.deadline() - now);
            }
        }
        return next;
    }

    /**
     * Starts a heartbeat run now, for a new connection whose first heartbeat may be due before the
     * current run's next turn; that run then ends.
     */
    private void heartbeatsNow() {
        scheduleHeartbeats(beats.incrementAndGet(), 0);
    }

    /**
     * On the timer thread, so heartbeats go out even while the I/O thread runs a long handler. It
     * wakes when the next heartbeat is due, not on a fixed period: an idle context should not wake
     * its threads more often than its peers need.
     */
    private void heartbeats(int run) {
        long now = System.nanoTime();
        long next = IDLE_BEAT_CHECK_NANOS;
        for (TcpConnection c : snapshot()) {
            next = Math.min(next, c.heartbeat(now));
        }
        if (beats.get() == run) {
            scheduleHeartbeats(run, next);
        }
    }

    private void scheduleHeartbeats(int run, long delayNanos) {
        ScheduledExecutorService t = timer;
        try {
            if (t != null) {
                t.schedule(() -> heartbeats(run), delayNanos, TimeUnit.NANOSECONDS);
            }
        } catch (RejectedExecutionException stopping) {
            // stop() shut the timer down: no more heartbeats
        }
    }

    private List<TcpConnection> snapshot() {
        synchronized (connectLock) {
            return new ArrayList<>(established.values());
        }
    }

    void closed(TcpConnection connection) {
        synchronized (connectLock) {
            established.remove(new Key(connection.peer(), connection.connectionClass()), connection);
        }
        synchronized (totalsLock) {
            closedTotals = closedTotals.plus(connection.statistics());
        }
    }

    void closedInOrder(TcpConnection connection) {
        LOG.log(Level.DEBUG, () -> connection + ": the peer closed it in order");
    }

    void logRefusal(String line) {
        if (limiter.allow()) {
            LOG.log(Level.WARNING, line);
        }
    }

    @Override
    public Statistics statistics() {
        Statistics total;
        synchronized (totalsLock) {
            total = closedTotals;
        }
        for (TcpConnection c : snapshot()) {
            total = total.plus(c.statistics());
        }
        return total;
    }

    @Override
    public String toString() {
        return "tcp method at " + (advertised == null ? "(not started)" : TcpAddress.describe(advertised));
    }
}
