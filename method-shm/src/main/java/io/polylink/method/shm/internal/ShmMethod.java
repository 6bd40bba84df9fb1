package io.polylink.method.shm.internal;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.MalformedMessageException;
import io.polylink.Statistics;
import io.polylink.method.shm.internal.connect.Connections;
import io.polylink.method.shm.internal.connect.Connector;
import io.polylink.method.shm.internal.connect.Reassembly;
import io.polylink.method.shm.internal.connect.SendCounter;
import io.polylink.method.shm.internal.connect.ShmAddress;
import io.polylink.method.shm.internal.liveness.Heartbeat;
import io.polylink.method.shm.internal.liveness.Liveness;
import io.polylink.method.shm.internal.liveness.StaleSegments;
import io.polylink.method.shm.internal.poll.Backoff;
import io.polylink.method.shm.internal.poll.InboxPoller;
import io.polylink.method.shm.internal.poll.WakeSocket;
import io.polylink.method.shm.internal.segment.OwnInbox;
import io.polylink.method.shm.internal.segment.SegmentDirectory;
import io.polylink.method.shm.internal.segment.TrustedDirectories;
import io.polylink.spi.Applicability;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.spi.MethodContext;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The {@code shm} method: contexts on one host exchange frames through memory-mapped files in a
 * shared segment directory. Each context owns one inbox (a many-producer, one-consumer ring, see
 * {@link io.polylink.method.shm.internal.segment.InboxLayout}) named in its descriptor; a sender
 * maps the peer's inbox, takes a producer slot there, and writes records; replies come back
 * through the sender's own inbox. One poller thread reads the inbox ({@link InboxPoller}), and any
 * thread may read it through {@link #progress} while the poller stands back; one timer thread
 * writes its heartbeat and judges the peers' ({@link Heartbeat}).
 *
 * <p>This class puts the parts together when the core starts the method, and takes them apart in
 * order when it stops: the heartbeat first, then the inbox is marked closed so senders give up at
 * once, then the connections, the poller, and last the inbox file. A method that cannot make its
 * inbox at start (its directory cannot be written, say) starts without one and refuses links, with
 * why, until the poller makes one; one whose poller cannot go on fails for good: its inbox is
 * marked closed and its connections fail, so peers move their links at once.
 */
@Component(service = CommunicationMethod.class, configurationPid = ShmSettings.PID,
    property = {CommunicationMethod.NAME_PROPERTY + "=" + ShmMethod.NAME,
        CommunicationMethod.PREFERENCE_PROPERTY + ":Integer=20"})
@Designate(ocd = ShmConfig.class)
public final class ShmMethod implements CommunicationMethod {

    static final String NAME = ShmAddress.METHOD;
    private static final System.Logger LOG = System.getLogger("io.polylink.method.shm");

    private final ShmSettings settings;
    /** Problems the method met, beyond what its connections count. */
    private final AtomicLong errors = new AtomicLong();
    private volatile MethodContext context;
    private volatile Connections connections;
    private ShmAddress self;
    private volatile TrustedDirectories trusted;
    private WakeSocket wake;
    private volatile OwnInbox own;
    private volatile InboxPoller poller;
    private Heartbeat heartbeat;

    /**
     * For Declarative Services, and for use outside OSGi.
     *
     * @param properties the configuration, keyed as {@link ShmConfig}
     * @throws io.polylink.spi.InvalidSettingException naming the key whose value cannot be used
     */
    @Activate
    public ShmMethod(Map<String, Object> properties) {
        this.settings = ShmSettings.read(properties);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public synchronized void start(MethodContext context) throws IOException {
        this.context = context;
        Path directory = settings.directory();
        try {
            cleanUp(directory);
            wake = WakeSocket.open();
            String inbox = SegmentDirectory.inboxName(context.contextId());
            trusted = new TrustedDirectories(directory, settings.trustedDirectories());
            own = new OwnInbox(trusted, inbox, context.contextId(), settings.producerSlots(), settings.ringBytes(),
                wake.port(), Liveness.startMillis(ProcessHandle.current()));
            if (own.unavailable() != null) {
                errors.incrementAndGet();
                context.problems().warn("no inbox", "shm starts without an inbox: " + own.unavailable() + "; links "
                    + "use other methods, and shm tries again every second", null);
            }
            self = new ShmAddress(context.host(), directory, inbox);
            Reassembly reassembly = new Reassembly();
            SendCounter sends = new SendCounter();
            connections = new Connections(new Connector(trusted, context, self.encode(), settings.sendTimeoutMs(),
                settings.failureTimeoutMs(), reassembly, sends), own::unavailable, context.problems(), errors);
            poller = new InboxPoller(own, wake, new Backoff(settings.idleStrategy(), settings.spinMicros()),
                connections, reassembly, sends, settings.unblockTimeoutMs(), settings.standBackMs(), context.problems(),
                errors, this::pollerEnded);
            heartbeat = new Heartbeat(settings.heartbeatIntervalMs(), own, poller::turnedAt,
                connections::judgeReceivers, context.problems(), errors);
        } catch (IOException | RuntimeException e) {
            stop();
            throw new IOException("shm cannot start in " + directory + ": " + e.getMessage(), e);
        }
    }

    /** Removes what killed contexts left in the directory, if it is there to be read. */
    private void cleanUp(Path directory) {
        try {
            SegmentDirectory.prepare(directory);
            StaleSegments.clean(directory, settings.failureTimeoutMs());
        } catch (IOException e) {
            // The inbox cannot be made there either, and says why.
        }
    }

    /**
     * The poller could not go on: shm fails here for good, visibly. Its inbox is marked closed, so
     * senders fail at once; its connections fail, so links move; and it refuses new ones, saying why.
     */
    private void pollerEnded(Throwable cause) {
        errors.incrementAndGet();
        String why = "shm failed: its poller ended with " + cause + "; shm is back once its bundle or its "
            + "configuration is updated";
        LOG.log(Level.ERROR, why, cause);
        OwnInbox inbox = own;
        Connections table = connections;
        if (inbox != null && table != null) {
            inbox.fail(why);
            table.failAll(why);
        }
    }

    @Deactivate
    @Override
    public synchronized void stop() {
        if (heartbeat != null) {
            heartbeat.close();
            heartbeat = null;
        }
        if (own != null) {
            own.markClosed();
        }
        if (connections != null) {
            connections.closeAll();
        }
        if (poller != null) {
            poller.close();
            poller = null;
        }
        if (own != null) {
            own.close();
            own = null;
        }
        if (wake != null) {
            wake.close();
            wake = null;
        }
    }

    @Override
    public byte[] localAddress() {
        return self.encode();
    }

    @Override
    public Applicability applicable(ContextId peer, byte[] address) {
        OwnInbox inbox = own;
        String down = inbox == null ? "the shm method is stopped" : inbox.unavailable();
        if (down != null) {
            return Applicability.no("shm has no inbox here: " + down);
        }
        try {
            return ShmAddress.decode(address).applicability(context.host(), trusted);
        } catch (MalformedMessageException e) {
            return Applicability.no(e.getMessage());
        }
    }

    @Override
    public String describe(byte[] address) {
        try {
            return ShmAddress.decode(address).describe();
        } catch (MalformedMessageException e) {
            return "(" + e.getMessage() + ")";
        }
    }

    @Override
    public Connection connect(ContextId peer, byte[] address, Map<String, String> parameters) {
        if (!parameters.isEmpty()) {
            throw new LinkException("shm takes no per-link parameters; got " + parameters.keySet());
        }
        ShmAddress there;
        try {
            there = ShmAddress.decode(address);
        } catch (MalformedMessageException e) {
            throw new LinkException("bad shm address: " + e.getMessage(), e);
        }
        Connections table = connections;
        if (table == null) {
            throw new LinkException("the shm method is stopped");
        }
        return table.connect(peer, there);
    }

    @Override
    public int progress() {
        InboxPoller reader = poller;
        return reader == null ? 0 : reader.progress();
    }

    @Override
    public void handBackReceiving() {
        InboxPoller reader = poller;
        if (reader != null) {
            reader.handBack();
        }
    }

    @Override
    public Statistics statistics() {
        Connections table = connections;
        Statistics total = table == null ? Statistics.ZERO : table.statistics();
        return total.plus(new Statistics(0, 0, 0, 0, errors.get()));
    }

    @Override
    public String toString() {
        return "shm method at " + (self == null ? "(not started)" : self.describe());
    }
}
