package io.polylink.method.tcp.internal;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.MalformedMessageException;
import io.polylink.Statistics;
import io.polylink.method.tcp.internal.address.Advertised;
import io.polylink.method.tcp.internal.address.TcpAddress;
import io.polylink.method.tcp.internal.config.TcpConfig;
import io.polylink.method.tcp.internal.config.TcpSettings;
import io.polylink.method.tcp.internal.connect.Acceptor;
import io.polylink.method.tcp.internal.connect.Connections;
import io.polylink.method.tcp.internal.connect.Dialler;
import io.polylink.method.tcp.internal.connection.FrameLimits;
import io.polylink.method.tcp.internal.connection.TcpConnection;
import io.polylink.method.tcp.internal.liveness.Heartbeats;
import io.polylink.method.tcp.internal.loop.IoLoop;
import io.polylink.spi.Applicability;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.spi.InvalidSettingException;
import io.polylink.spi.MethodContext;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The {@code tcp} method: one listening socket, one connection per peer context (and per set of
 * link parameters), one I/O thread running the connections' selector ({@code polylink-tcp-io}),
 * one thread accepting and answering handshakes ({@code polylink-tcp-accept}), one timer thread
 * for heartbeats ({@code polylink-tcp-timer}). This class puts them together; each is a class of
 * its own: {@link IoLoop}, {@link Acceptor} and {@link Dialler}, {@link Heartbeats}, and
 * {@link TcpConnection} for each connection.
 *
 * <p>No thread of the method dies of what one connection does: the connection is closed and the
 * thread goes on. If the I/O or the accepting thread cannot go on at all, the method fails as a
 * whole, visibly: it logs why, stops its heartbeats and its listener and closes every connection,
 * so peers see it gone and move their links, and this context's links move off tcp too, as it
 * says it applies to nothing until it is restarted.
 *
 * <p>It can be driven from outside: {@link #progress} receives on the calling thread in the I/O
 * thread's place, which stands back while calls keep coming and takes over about half a
 * millisecond after the last: a nap and a turn ({@link IoLoop}).
 */
@Component(service = CommunicationMethod.class, configurationPid = TcpSettings.PID,
    property = {CommunicationMethod.NAME_PROPERTY + "=" + TcpMethod.NAME,
        CommunicationMethod.PREFERENCE_PROPERTY + ":Integer=50"})
@Designate(ocd = TcpConfig.class)
public final class TcpMethod implements CommunicationMethod {

    static final String NAME = "tcp";
    private static final System.Logger LOG = System.getLogger("io.polylink.method.tcp");

    private volatile TcpSettings settings;
    /**
     * With {@code port=0}: the port the last start listened on, where the next start listens
     * again, so a restart after a change of another key keeps the address peers hold; 0 for none.
     */
    private int keptPort;
    private final Connections connections = new Connections();
    private MethodContext context;
    private FrameLimits frames;
    /** Read by {@link #progress} from any thread, unlocked. */
    private volatile IoLoop loop;
    private Heartbeats heartbeats;
    private Acceptor acceptor;
    /** Counts starts, so a failure reported by the threads of one start stops that start only. */
    private int generation;
    /** Why the method cannot go on, once one of its threads could not; {@code null} while it runs. */
    private volatile String failure;
    private volatile Dialler dialler;
    private volatile byte[] address;
    private volatile List<InetSocketAddress> advertised;

    /**
     * For Declarative Services, and for use outside OSGi.
     *
     * @param properties the configuration, keyed as in {@link TcpConfig}
     * @throws io.polylink.spi.InvalidSettingException naming the key whose value cannot be used
     */
    @Activate
    public TcpMethod(Map<String, Object> properties) {
        this.settings = TcpSettings.read(properties);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public synchronized void start(MethodContext context) throws IOException {
        this.context = context;
        int started = ++generation;
        failure = null;
        connections.start();
        try {
            frames = new FrameLimits(context.maxFrameSize(), settings.limits().largeFrameBudget());
            loop = new IoLoop("polylink-tcp-io", settings.idleStrategy(),
                TimeUnit.MICROSECONDS.toNanos(settings.spinMicros()),
                TimeUnit.MICROSECONDS.toNanos(settings.standBackMicros()), this::tick, context.problems(),
                cause -> failed(started, "polylink-tcp-io", cause));
            heartbeats = new Heartbeats(connections::snapshot, loop::alive, context.problems());
            acceptor = listen(context, cause -> failed(started, "polylink-tcp-accept", cause));
            advertised = Advertised.addresses(settings.advertise(), acceptor.localAddress());
            address = TcpAddress.encode(advertised);
            dialler = new Dialler(settings, context, connections, loop, heartbeats, frames);
            heartbeats.now();
        } catch (IOException | RuntimeException e) {
            stop();
            throw new IOException("tcp cannot listen on " + settings.bindAddress() + ":" + settings.port()
                + ": " + e.getMessage(), e);
        }
    }

    /** Listens on the kept port if there is one and it is free, else as configured. */
    private Acceptor listen(MethodContext context, Consumer<Throwable> stopped) throws IOException {
        if (settings.port() == 0 && keptPort != 0) {
            try {
                return new Acceptor(settings.withPort(keptPort), context, connections, loop, heartbeats, frames, stopped);
            } catch (IOException taken) {
                context.problems().warn("port taken", "tcp cannot listen on its port " + keptPort + " again ("
                    + taken.getMessage() + "); it listens on a new one, and peers need its new startpoint", null);
            }
        }
        Acceptor listening = new Acceptor(settings, context, connections, loop, heartbeats, frames, stopped);
        keptPort = settings.port() == 0 ? listening.localAddress().getPort() : 0;
        return listening;
    }

    /**
     * Takes a new configuration for the next start and keeps the instance, so the core restarts
     * the method (its service's properties change) on the port it listened on, unless the change
     * is of {@code port} or {@code bindAddress}. A value that cannot be used is refused, and the
     * configuration in force stays.
     */
    @Modified
    synchronized void modified(Map<String, Object> properties) {
        TcpSettings next;
        try {
            next = TcpSettings.read(properties);
        } catch (InvalidSettingException e) {
            LOG.log(Level.WARNING, e.getMessage() + "; refused, the tcp method keeps its configuration");
            return;
        }
        if (next.port() != settings.port() || !next.bindAddress().equals(settings.bindAddress())) {
            keptPort = 0;
        }
        settings = next;
    }

    @Deactivate
    @Override
    public synchronized void stop() {
        stop(null);
    }

    /** @param cause why connections close: {@code null} to close them in order */
    private void stop(Throwable cause) {
        if (heartbeats != null) {
            heartbeats.close();
            heartbeats = null;
        }
        for (TcpConnection c : connections.stop()) {
            if (cause == null) {
                c.close();
            } else {
                c.fail(cause);
            }
        }
        if (dialler != null) {
            dialler.close();
        }
        if (acceptor != null) {
            acceptor.close();
            acceptor = null;
        }
        if (loop != null) {
            loop.close();
            loop = null;
        }
    }

    /**
     * On the I/O thread: each connection's liveness, and buffers unused for long.
     *
     * @param held nanoseconds the loop was held since the last tick (a long inline handler), which
     *     are not the peers' fault
     * @return nanoseconds until the next connection's check is due; {@link IoLoop#NO_TIMERS} if
     *     there is none, until one registers
     */
    private long tick(long held) {
        long now = System.nanoTime();
        long next = IoLoop.NO_TIMERS;
        for (TcpConnection c : connections.snapshot()) {
            try {
                next = Math.min(next, c.tick(now, held));
            } catch (Throwable e) {
                context.problems().warn("failed check", "polylink-tcp-io closed " + c + " after an unexpected " + e
                    + " in its checks; it goes on with the others", e);
                c.fail(e);
            }
        }
        return next;
    }

    /**
     * A thread of the start numbered {@code started} cannot go on: the method fails, visibly. Said
     * at once; the parts are stopped on a thread of their own, as the failing thread may be one
     * that stopping waits for.
     */
    private void failed(int started, String thread, Throwable cause) {
        failure = thread + " stopped after " + cause;
        LOG.log(Level.ERROR, "the tcp method cannot go on and stops: " + failure + ". Its connections close and "
            + "links move to other methods; restart the tcp method (its bundle, or a change of its configuration) "
            + "to use tcp again", cause);
        Thread stopping = new Thread(() -> stopAfterFailure(started, cause), "polylink-tcp-failed");
        stopping.setDaemon(true);
        stopping.start();
    }

    private synchronized void stopAfterFailure(int started, Throwable cause) {
        if (generation == started && loop != null) {
            stop(new IOException("the tcp method failed: " + failure, cause));
        }
    }

    /**
     * Receives once on the calling thread, in the I/O thread's place ({@link IoLoop#progress}):
     * reads the connection that carries a conversation directly, or whatever the selector says is
     * ready, and the core's handlers run on this thread.
     *
     * @return 1 if frames or parts of frames came, else 0: also while another thread receives,
     *     while there is no connection, and before {@link #start} and after {@link #stop}
     */
    @Override
    public int progress() {
        IoLoop receiving = loop;
        // With no connection a caller has nothing to read, and its call would only make the I/O
        // thread stand back from its selector; the thread accepts and reads as it would.
        return receiving == null || !connections.any() ? 0 : receiving.progress();
    }

    @Override
    public void handBackReceiving() {
        IoLoop receiving = loop;
        if (receiving != null) {
            receiving.handBack();
        }
    }

    @Override
    public byte[] localAddress() {
        return address.clone();
    }

    @Override
    public Applicability applicable(ContextId peer, byte[] address) {
        String failed = failure;
        if (failed != null) {
            return Applicability.no("the tcp method failed (" + failed + ") and waits to be restarted");
        }
        try {
            return Applicability.yes("reachable at " + TcpAddress.describe(TcpAddress.decode(address)));
        } catch (MalformedMessageException e) {
            return Applicability.no(e.getMessage());
        }
    }

    @Override
    public Connection connect(ContextId peer, byte[] address, Map<String, String> parameters) {
        String failed = failure;
        if (failed != null) {
            throw new LinkException("the tcp method failed (" + failed + ") and waits to be restarted: no connection to "
                + peer);
        }
        Dialler d = dialler;
        if (d == null) {
            throw new LinkException("the tcp method is not started: no connection to " + peer);
        }
        return d.connect(peer, address, parameters);
    }

    @Override
    public String describe(byte[] address) {
        try {
            return TcpAddress.describe(TcpAddress.decode(address));
        } catch (MalformedMessageException e) {
            return "(" + e.getMessage() + ")";
        }
    }

    /** @return how many connections are open */
    public int connectionCount() {
        return connections.openCount();
    }

    /** @return bytes the connections hold for large frames arriving, or kept for the next */
    synchronized long largeFrameBytes() {
        return frames == null ? 0 : frames.held();
    }

    @Override
    public Statistics statistics() {
        return connections.statistics();
    }

    @Override
    public String toString() {
        List<InetSocketAddress> at = advertised;
        return "tcp method at " + (at == null ? "(not started)" : TcpAddress.describe(at));
    }
}
