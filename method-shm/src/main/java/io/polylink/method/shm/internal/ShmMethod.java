package io.polylink.method.shm.internal;

import static io.polylink.method.shm.internal.InboxLayout.*;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.MalformedMessageException;
import io.polylink.Statistics;
import io.polylink.spi.Applicability;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.spi.HostIdentity;
import io.polylink.spi.MethodContext;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntToLongFunction;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The {@code shm} method: contexts on one host exchange frames through memory-mapped files in a
 * shared segment directory. Each context owns one inbox (a many-producer, one-consumer ring, see
 * {@link InboxLayout}) named in its descriptor; a sender maps the peer's inbox, takes a producer
 * slot there, and writes records; replies come back through the sender's own inbox. One poller
 * thread reads the inbox; one timer thread writes its heartbeat and watches the peers'.
 *
 * <p>A parked poller is woken by a one-byte datagram on the loopback port in its inbox header,
 * sent only by the producer that finds the "parked" flag set: an idle context costs no CPU, and a
 * sender never waits for a polling interval.
 */
@Component(service = CommunicationMethod.class, configurationPid = "io.polylink.method.shm",
    property = {CommunicationMethod.NAME_PROPERTY + "=" + ShmMethod.NAME,
        CommunicationMethod.PREFERENCE_PROPERTY + ":Integer=20"})
@Designate(ocd = ShmConfig.class)
public final class ShmMethod implements CommunicationMethod, Inbox.RecordHandler {

    static final String NAME = "shm";
    private static final System.Logger LOG = System.getLogger("io.polylink.method.shm");
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final int BATCH = 256;
    /** The poller reads the clock once in this many turns (a power of two): a few microseconds when spinning. */
    private static final int CLOCK_LOOPS = 64;

    /** What the poller knows of one producer slot of its inbox. */
    private static final class SlotView {
        long session;
        ShmConnection connection;
        /** Tail when the slot's producer was found dead; the slot is freed once the head passes it. */
        long releaseAt = -1;
    }

    private final ShmSettings settings;
    private final SecureRandom random = new SecureRandom();
    private final Object lock = new Object();
    private final Map<ContextId, ShmConnection> connections = new HashMap<>();
    private final AtomicLong errors = new AtomicLong();
    private Statistics closedTotals = Statistics.ZERO;

    private volatile MethodContext context;
    private ShmAddress self;
    private byte[] address;
    private long startMillis;
    private volatile Segment own;
    private Inbox inbox;
    private SlotView[] views;
    private DatagramChannel wake;
    private Selector selector;
    private final ByteBuffer drain = ByteBuffer.allocate(64);
    /** Split frames are put together in its buffers; poller only. */
    private final Reassembly reassembly = new Reassembly();
    private Thread poller;
    /**
     * Frames sent to any peer, by any thread: how many went out between two records tells a
     * conversation from a stream. Increments may race and get lost; an estimate does.
     */
    private final AtomicInteger sends = new AtomicInteger();
    private volatile boolean running;
    private ScheduledExecutorService timer;

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
        startMillis = Liveness.startMillis(ProcessHandle.current());
        Path directory = settings.directory();
        try {
            prepare(directory);
            StaleSegments.Result stale = StaleSegments.clean(directory, settings.failureTimeoutMs());
            if (!stale.removed().isEmpty()) {
                LOG.log(Level.INFO, "removed " + stale.removed().size() + " stale shm segment(s) of dead contexts: "
                    + stale.removed());
            }
            stale.left().forEach(line -> LOG.log(Level.WARNING, "shm segment " + line));
            selector = Selector.open();
            wake = DatagramChannel.open();
            wake.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            wake.configureBlocking(false);
            wake.register(selector, SelectionKey.OP_READ);
            String name = HexFormat.of().formatHex(ByteBuffer.allocate(16).putLong(context.contextId().high())
                .putLong(context.contextId().low()).array()) + ".inbox";
            own = createInbox(directory.resolve(name));
            self = new ShmAddress(context.host(), directory, name);
            address = self.encode();
            running = true;
            poller = new Thread(this::poll, "polylink-shm-io");
            poller.setDaemon(true);
            poller.start();
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "polylink-shm-timer");
                t.setDaemon(true);
                return t;
            });
            timer.scheduleAtFixedRate(this::beat, 0, settings.heartbeatIntervalMs(), TimeUnit.MILLISECONDS);
        } catch (IOException | RuntimeException e) {
            stop();
            throw new IOException("shm cannot start in " + directory + ": " + e.getMessage(), e);
        }
    }

    private static void prepare(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            try {
                Files.createDirectories(directory,
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } catch (UnsupportedOperationException e) {
                Files.createDirectories(directory);
            }
        }
        if (!Files.isWritable(directory)) {
            throw new IOException("segment directory " + directory + " is not writable");
        }
    }

    private Segment createInbox(Path path) throws IOException {
        Segment segment = Segment.create(path, context.contextId(), settings.producerSlots(), settings.ringBytes(),
            ((InetSocketAddress) wake.getLocalAddress()).getPort(), startMillis);
        inbox = new Inbox(segment, settings.unblockTimeoutMs());
        SlotView[] fresh = new SlotView[settings.producerSlots()];
        for (int i = 0; i < fresh.length; i++) {
            fresh[i] = new SlotView();
        }
        views = fresh;
        return segment;
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
        Segment segment = own;
        if (segment != null) {
            // Senders see this before the file goes, and fail at once instead of at the heartbeat timeout.
            segment.state(STATE_CLOSED);
        }
        for (ShmConnection c : snapshot()) {
            c.close();
        }
        running = false;
        if (poller != null) {
            if (selector != null) {
                selector.wakeup();
            }
            try {
                poller.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (poller.isAlive()) {
                LOG.log(Level.WARNING, poller.getName() + " did not stop within 5 s");
            }
            poller = null;
        }
        if (segment != null) {
            try {
                Files.deleteIfExists(segment.path());
            } catch (IOException e) {
                LOG.log(Level.WARNING, "could not remove shm segment " + segment.path() + ": " + e.getMessage());
            }
            own = null;
        }
        closeQuietly(wake);
        closeQuietly(selector);
        wake = null;
        selector = null;
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // closing anyway
            }
        }
    }

    @Override
    public byte[] localAddress() {
        return address.clone();
    }

    /** @return the path of this context's inbox, while started */
    Path inboxPath() {
        Segment segment = own;
        return segment == null ? null : segment.path();
    }

    @Override
    public Applicability applicable(ContextId peer, byte[] address) {
        ShmAddress there;
        try {
            there = ShmAddress.decode(address);
        } catch (MalformedMessageException e) {
            return Applicability.no(e.getMessage());
        }
        HostIdentity here = context.host();
        if (!here.sameHost(there.host())) {
            return Applicability.no(here.difference(there.host()));
        }
        Path directory = there.directory();
        if (!Files.isDirectory(directory)) {
            return Applicability.no("segment directory " + directory + " not reachable here");
        }
        if (!Files.isWritable(directory)) {
            return Applicability.no("segment directory " + directory + " not writable here");
        }
        Path inbox = there.inboxPath();
        if (!Files.isRegularFile(inbox) || !Files.isWritable(inbox)) {
            return Applicability.no("no writable inbox " + inbox + " here (the context stopped, or this "
                + "process sees another file system at " + directory + ")");
        }
        return Applicability.yes("same host, segment directory " + directory);
    }

    @Override
    public String describe(byte[] address) {
        try {
            return ShmAddress.decode(address).describe();
        } catch (MalformedMessageException e) {
            return "(" + e.getMessage() + ")";
        }
    }

    // ---- connecting

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
        ShmConnection connection;
        synchronized (lock) {
            ShmConnection existing = connections.get(peer);
            if (existing != null && existing.isOpen()) {
                return existing;
            }
            if (!running) {
                throw new LinkException("the shm method is stopped");
            }
            connection = open(peer, there, 0);
        }
        connection.sendOpen(0);
        return connection;
    }

    /** Maps the peer's inbox, takes a slot and registers the connection; lock held. */
    private ShmConnection open(ContextId peer, ShmAddress there, long peerSession) {
        Segment segment = Segment.open(there.inboxPath());
        if (!segment.owner().equals(peer)) {
            throw new SegmentException("inbox " + there.describe() + " belongs to context " + segment.owner()
                + ", not " + peer);
        }
        if (segment.state() != STATE_OPEN) {
            throw new SegmentException("inbox " + there.describe() + " of context " + peer + " is "
                + (segment.state() == STATE_CORRUPT ? "being replaced after corruption" : "closed"));
        }
        if (!Liveness.alive(segment.ownerPid(), segment.ownerStart())) {
            throw new SegmentException("inbox " + there.describe() + " belongs to process " + segment.ownerPid()
                + ", which is gone");
        }
        Outbox out;
        try {
            out = new Outbox(segment, session(), context.contextId(), address);
        } catch (IOException e) {
            throw new LinkException("cannot open a wake-up socket for " + there.describe() + ": " + e.getMessage(), e);
        }
        ShmConnection connection = new ShmConnection(this, peer, there, out, peerSession, context.maxFrameSize(),
            settings.sendTimeoutMs(), reassembly);
        if (peerSession != 0) {
            connection.answerLater(peerSession); // before anyone can find it and send a frame first
        }
        connection.attach(context.inbound().open(connection));
        connections.put(peer, connection);
        return connection;
    }

    private long session() {
        long session;
        do {
            session = random.nextLong();
        } while (session == 0);
        return session;
    }

    void closed(ShmConnection connection) {
        synchronized (lock) {
            connections.remove(connection.peer(), connection);
            closedTotals = closedTotals.plus(connection.statistics());
        }
    }

    private List<ShmConnection> snapshot() {
        synchronized (lock) {
            return new ArrayList<>(connections.values());
        }
    }

    int connectionCount() {
        synchronized (lock) {
            return (int) connections.values().stream().filter(ShmConnection::isOpen).count();
        }
    }

    // ---- the poller thread

    private void poll() {
        Backoff backoff = new Backoff(settings.idleStrategy(), settings.spinMicros());
        long lastWork = System.nanoTime();
        long nextTick = lastWork + TICK_NANOS;
        boolean worked = false;
        int sendsSeen = 0;
        int loops = 0;
        boolean yielding = false;
        while (running) {
            try {
                int records;
                try {
                    records = inbox.poll(this, BATCH);
                } catch (Inbox.CorruptInboxException e) {
                    corrupted(e.getMessage());
                    records = 0;
                }
                if (records > 0) {
                    worked = true;
                }
                // The clock costs as much as an empty poll or more: read it only every CLOCK_LOOPS turns.
                if ((++loops & CLOCK_LOOPS - 1) != 0) {
                    if (records > 0) {
                        yielding = false;
                    } else if (yielding) {
                        Thread.yield();
                    } else {
                        Thread.onSpinWait();
                    }
                    continue;
                }
                long now = System.nanoTime();
                if (worked) {
                    int sent = sends.get();
                    backoff.workAfter(now - lastWork, sent - sendsSeen);
                    sendsSeen = sent;
                    lastWork = now;
                    worked = false;
                }
                boolean tick = now - nextTick >= 0;
                if (tick) {
                    tick();
                    nextTick = now + TICK_NANOS;
                }
                yielding = records == 0 && now - lastWork >= backoff.yieldNanos();
                if (records > 0) {
                    continue;
                }
                inbox.checkStall(this, now, tick);
                if (now - lastWork >= backoff.spinNanos()) {
                    park(nextTick - now);
                }
            } catch (IOException | RuntimeException e) {
                errors.incrementAndGet();
                LOG.log(Level.ERROR, Thread.currentThread().getName() + " survived an unexpected failure", e);
            }
        }
    }

    /**
     * Sleeps until a producer pokes or the next tick. The flag is raised before the last look at the
     * ring, and producers look at the flag after committing: one of the two always sees the other.
     */
    private void park(long untilTickNanos) throws IOException {
        Segment segment = own;
        segment.parked(true);
        if (inbox.ready()) {
            segment.parked(false);
            return;
        }
        // A claimed record not yet committed: its producer pokes when done, but it may have died.
        long millis = inbox.pending() ? 1 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(untilTickNanos));
        selector.select(millis);
        segment.parked(false);
        selector.selectedKeys().clear();
        while (wake.receive(drain.clear()) != null) {
            // each poke is one byte; one is enough
        }
    }

    /** A connection sent a frame, on whatever thread: an ordered store, no locked add per frame. */
    void sent() {
        sends.lazySet(sends.get() + 1);
    }

    @Override
    public void onRecord(int type, int flags, int slot, ByteBuffer body) {
        if (slot >= views.length) {
            errors.incrementAndGet();
            problem("bad record", 1, "shm inbox " + own.path() + ": record for producer slot " + slot + " of "
                + views.length + " dropped");
            return;
        }
        SlotView view = views[slot];
        switch (type) {
            case TYPE_DATA -> {
                ShmConnection c = view.connection;
                if (c != null) {
                    c.onData(flags, body);
                }
            }
            case TYPE_OPEN -> opened(slot, view, body.remaining() >= 8 ? body.getLong(body.position()) : 0);
            case TYPE_CLOSE -> {
                ShmConnection c = view.connection;
                view.connection = null;
                view.session = 0;
                if (view.releaseAt < 0) {
                    own.freeSlot(slot);
                }
                if (c != null) {
                    c.closedByPeer();
                }
            }
            default -> {
                errors.incrementAndGet();
                problem("bad record", 1, "shm inbox " + own.path() + ": record of unknown type " + type + " from slot "
                    + slot + " dropped");
            }
        }
    }

    /** A producer's first record: match it to the connection it answers, or make one. */
    private void opened(int slot, SlotView view, long ack) {
        Segment segment = own;
        long session = segment.slotSession(slot);
        ContextId from = segment.slotPeer(slot);
        byte[] replyTo = segment.slotAddress(slot);
        ShmConnection target = null;
        ShmConnection replaced = null;
        synchronized (lock) {
            ShmConnection current = connections.get(from);
            boolean live = current != null && current.isOpen();
            if (live && current.peerSession() == 0 && (ack == 0 || ack == current.outSession())) {
                current.adopt(session);
                target = current;
            } else if (ack != 0 && (!live || ack != current.outSession())) {
                // It answers a session of ours that has closed; our goodbye is on its way to it.
                target = null;
            } else {
                replaced = live ? current : null;
                if (replaced != null) {
                    connections.remove(from, replaced);
                }
                try {
                    if (replyTo == null) {
                        throw new SegmentException("producer slot " + slot + " holds no valid reply address");
                    }
                    target = open(from, ShmAddress.decode(replyTo), session);
                } catch (LinkException e) {
                    errors.incrementAndGet();
                    problem("unanswered peer", 20, "shm: cannot answer context " + from + ": " + e.getMessage());
                }
            }
        }
        view.session = session;
        view.connection = target;
        if (replaced != null) {
            replaced.fail(new IOException("context " + from + " opened a new shm session"));
        }
    }

    /** Every {@link #TICK_NANOS} on the poller: producers that died, slots to free. */
    private void tick() {
        reassembly.tick();
        Segment segment = own;
        for (int slot = 0; slot < views.length; slot++) {
            SlotView view = views[slot];
            if (view.releaseAt >= 0) {
                if (inbox.head() - view.releaseAt >= 0) {
                    view.releaseAt = -1;
                    view.session = 0;
                    segment.freeSlot(slot);
                }
                continue;
            }
            long state = segment.slotState(slot);
            if (state == SLOT_FREE) {
                continue;
            }
            long pid = slotPid(state);
            if (Liveness.alive(pid, 0)) {
                continue;
            }
            ShmConnection c = view.connection;
            view.connection = null;
            if ((state & 3) == SLOT_CLAIMED) {
                segment.casSlotState(slot, state, SLOT_FREE);
            } else {
                view.releaseAt = segment.tail();
            }
            if (c != null) {
                errors.incrementAndGet();
                c.fail(new IOException("process " + pid + " of context " + c.peer() + " is gone"));
            }
        }
    }

    /**
     * A record stays unfinished only while its producer's thread is between claim and commit: a
     * producer whose process runs will finish it, however long a loaded host keeps it waiting,
     * so only one whose process is gone or stopped has abandoned it.
     */
    @Override
    public boolean abandoned(int slot) {
        Segment segment = own;
        if (slot >= 0) {
            return slot >= views.length || producerAbandoned(segment.slotState(slot));
        }
        return headerlessClaimAbandoned(views.length, segment::slotState);
    }

    /**
     * A claim whose producer has not written its header may be any producer's. It is skipped once
     * a producer's process is gone, or none is left, and none is stopped. A stopped producer may be
     * the owner: continued, it would mark and fill space the receiver had already skipped and
     * zeroed, where its compare-and-sets find the zeroes they expect, and leave a record behind
     * the receiver that a later lap could read. So while one is stopped, the claim waits.
     *
     * @param slotState the state word of each producer slot
     */
    static boolean headerlessClaimAbandoned(int slots, IntToLongFunction slotState) {
        boolean anyActive = false;
        boolean anyGone = false;
        for (int s = 0; s < slots; s++) {
            long state = slotState.applyAsLong(s);
            if (state == SLOT_FREE) {
                continue;
            }
            anyActive = true;
            long pid = slotPid(state);
            if (!Liveness.alive(pid, 0)) {
                anyGone = true;
            } else if (Liveness.stopped(pid)) {
                return false;
            }
        }
        return !anyActive || anyGone;
    }

    /** @param slotState a producer slot's state word */
    static boolean producerAbandoned(long slotState) {
        if (slotState == SLOT_FREE) {
            return true;
        }
        long pid = slotPid(slotState);
        return !Liveness.alive(pid, 0) || Liveness.stopped(pid);
    }

    @Override
    public void onSkipped(int slot, int bytes) {
        errors.incrementAndGet();
        String of = slot < 0 ? "" : "of slot " + slot + " ";
        problem("stalled record", 1, "shm inbox " + own.path() + ": skipped a " + bytes + "-byte record " + of
            + "left unfinished for " + settings.unblockTimeoutMs() + " ms (its sender's process ended or was "
            + "stopped mid-write)");
        if (slot >= 0 && slot < views.length && views[slot].connection != null) {
            // The frame it belonged to is lost: the connection cannot keep its promise of order.
            views[slot].connection.fail(new IOException("a record from this sender was skipped as stalled"));
        }
    }

    /**
     * The ring holds an impossible record: nothing after it can be trusted. Every inbound
     * connection is closed and a fresh inbox replaces the old file; senders see the old one marked
     * corrupt and connect again.
     */
    private void corrupted(String what) throws IOException {
        errors.incrementAndGet();
        Segment old = own;
        LOG.log(Level.ERROR, "shm inbox " + old.path() + " is corrupt: " + what + "; closing its connections "
            + "and replacing it");
        // The fresh file takes the name first, so senders that reconnect at once find it.
        own = createInbox(old.path());
        old.state(STATE_CORRUPT);
        for (ShmConnection c : snapshot()) {
            c.fail(new IOException("inbox " + old.path() + " is corrupt: " + what));
        }
    }

    // ---- the timer thread

    private void beat() {
        try {
            Segment segment = own;
            if (segment == null) {
                return;
            }
            segment.beat(System.currentTimeMillis());
            long now = System.nanoTime();
            long failureNanos = TimeUnit.MILLISECONDS.toNanos(settings.failureTimeoutMs());
            for (ShmConnection c : snapshot()) {
                String dead = c.isOpen() ? c.checkReceiver(now, failureNanos) : null;
                if (dead != null) {
                    errors.incrementAndGet();
                    c.fail(new IOException(dead)); // the core logs why, naming the connection
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "shm heartbeat failed", e);
        }
    }

    /** Logs a line of a kind that peers can cause in floods; {@code perSecond} for kinds whose lines name a peer. */
    void problem(String kind, int perSecond, String line) {
        context.problems().warn(kind, perSecond, line, null);
    }

    @Override
    public Statistics statistics() {
        Statistics total;
        synchronized (lock) {
            total = closedTotals;
        }
        for (ShmConnection c : snapshot()) {
            total = total.plus(c.statistics());
        }
        return total.plus(new Statistics(0, 0, 0, 0, errors.get()));
    }

    @Override
    public String toString() {
        return "shm method at " + (self == null ? "(not started)" : self.describe());
    }
}
