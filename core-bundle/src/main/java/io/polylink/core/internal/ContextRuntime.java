package io.polylink.core.internal;

import io.polylink.Context;
import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.DescriptorTable;
import io.polylink.Endpoint;
import io.polylink.Explanation;
import io.polylink.LinkException;
import io.polylink.MessageBuffer;
import io.polylink.PolylinkException;
import io.polylink.Startpoint;
import io.polylink.Statistics;
import io.polylink.core.internal.concurrent.ControlSender;
import io.polylink.core.internal.config.CoreSettings;
import io.polylink.core.internal.local.LocalMethod;
import io.polylink.core.internal.observe.Counters;
import io.polylink.core.internal.observe.RateLimitedLog;
import io.polylink.core.internal.wire.EncodedTable;
import io.polylink.core.internal.wire.FrameHeader;
import io.polylink.core.internal.wire.StartpointCodec.TargetRef;
import io.polylink.core.internal.wire.StartpointCodec;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import io.polylink.spi.HostIdentity;
import io.polylink.spi.InboundSink;
import io.polylink.spi.NameRegistry;
import io.polylink.spi.SelectionPolicy;
import io.polylink.spi.Transform;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The runtime of one context: its methods and transforms, its descriptor table, its endpoints,
 * and the channels its links travel on. Plain Java; {@link ContextComponent} wires it into OSGi.
 *
 * <p>Methods and transforms may come and go at any time. Each change bumps the
 * {@linkplain #generation() generation}, and every link selects again on its next send.
 */
final class ContextRuntime implements Context, InboundSink {

    private static final System.Logger LOG = System.getLogger("io.polylink.core");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}");
    /** Room transforms may add to a payload: lz4's worst case plus headers and tags. */
    private static final int TRANSFORM_ALLOWANCE = 4096;
    /**
     * Lines a second for lost connections, each naming its own: at one, a second peer lost within
     * the second went unnamed; a few keep a flood of them bounded.
     */
    private static final int CONNECTIONS_LOST_PER_INTERVAL = 10;

    /**
     * A method with what the core needs to know of it.
     *
     * @param deliversOnSend whether its connections deliver each frame before their send returns
     */
    private record InstalledMethod(CommunicationMethod method, int preference, byte[] address,
                                   boolean deliversOnSend) {}

    private final ContextId id;
    private final CoreSettings settings;
    private final EndpointTable endpoints = new EndpointTable();
    private final Counters counters = new Counters();
    private final RateLimitedLog log = new RateLimitedLog(LOG, TimeUnit.SECONDS.toNanos(1));
    private final ThreadPoolExecutor executor;
    private final ControlSender controlSender;
    /** Retries moving flows that found no way to their peer; its thread lives while one waits. */
    private final ScheduledThreadPoolExecutor retries;
    private final Map<String, InstalledMethod> methods = new ConcurrentHashMap<>();
    private final Map<String, Transform> transforms = new ConcurrentHashMap<>();
    private final Map<Connection, Channel> channels = new ConcurrentHashMap<>();
    private final ChannelPool pool = new ChannelPool();
    private final StorePool stores = new StorePool(this::later);
    private final Map<Flow.Key, Flow> flows = new ConcurrentHashMap<>();
    private final Map<Long, Flow> flowsById = new ConcurrentHashMap<>();
    private final InboundFlows inbound = new InboundFlows();
    private final Endpoint system;
    private final DeployedStacks deployed = new DeployedStacks();
    private volatile InstallOnDemand onDemand = InstallOnDemand.NONE;
    private volatile SelectionPolicy policy = FirstApplicablePolicy.INSTANCE;
    private volatile NameRegistry registry;
    private volatile EncodedTable table;
    private volatile int generation;
    private volatile boolean closed;

    ContextRuntime(CoreSettings settings) {
        this.settings = settings;
        this.id = settings.id() != null ? settings.id() : ContextId.random();
        AtomicInteger threads = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(settings.handlerThreads(), settings.handlerThreads(),
            30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, "polylink-handler-" + threads.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        this.executor.allowCoreThreadTimeOut(true);
        this.controlSender = new ControlSender("polylink-control-" + id);
        this.retries = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "polylink-retry-" + id);
            t.setDaemon(true);
            return t;
        });
        this.retries.setKeepAliveTime(1, TimeUnit.SECONDS);
        this.retries.allowCoreThreadTimeOut(true);
        this.retries.setRemoveOnCancelPolicy(true);
        addMethod(new LocalMethod(), Integer.MIN_VALUE, true);
        this.system = SystemEndpoint.create(this);
    }

    /** @return the endpoint with the built-in echo and relay services */
    Endpoint system() {
        return system;
    }

    // ---- Context

    @Override
    public ContextId id() {
        return id;
    }

    @Override
    public DescriptorTable descriptorTable() {
        return table.table();
    }

    @Override
    public Endpoint createEndpoint() {
        return createEndpoint(null);
    }

    @Override
    public Endpoint createEndpoint(Object attachment) {
        checkOpen();
        return endpoints.add(this, attachment);
    }

    @Override
    public MessageBuffer allocateBuffer(int initialCapacity) {
        if (initialCapacity < 0 || initialCapacity > settings.maxMessageSize()) {
            throw new IllegalArgumentException("buffer capacity " + initialCapacity + " is outside 0.."
                + settings.maxMessageSize());
        }
        return new MessageBufferImpl(this, initialCapacity);
    }

    @Override
    public Startpoint startpoint(String text) {
        return startpoint(StartpointCodec.fromText(text));
    }

    @Override
    public void publish(String name, Startpoint startpoint) {
        String text = own(startpoint).toText();
        try {
            registry(name).publish(name, text);
        } catch (IOException e) {
            throw new PolylinkException("cannot publish '" + name + "': " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<Startpoint> lookup(String name) {
        try {
            return registry(name).lookup(name).map(this::startpoint);
        } catch (IOException e) {
            throw new PolylinkException("cannot look up '" + name + "': " + e.getMessage(), e);
        }
    }

    @Override
    public void unpublish(String name) {
        try {
            registry(name).unpublish(name);
        } catch (IOException e) {
            throw new PolylinkException("cannot unpublish '" + name + "': " + e.getMessage(), e);
        }
    }

    /**
     * Under the lock that adds and removes methods, so a method listed here is in the table
     * already: a startpoint made right after {@code methods()} showed one once went out without
     * it, and its first reply found no way back.
     */
    @Override
    public synchronized Set<String> methods() {
        return new TreeSet<>(methods.keySet());
    }

    /** Under the lock, as {@link #methods()}. */
    @Override
    public synchronized Set<String> transforms() {
        return new TreeSet<>(transforms.keySet());
    }

    @Override
    public int maxMessageSize() {
        return settings.maxMessageSize();
    }

    @Override
    public Statistics statistics() {
        return counters.snapshot();
    }

    @Override
    public String toString() {
        return "context " + id;
    }

    // ---- methods, transforms, policy, registry

    /**
     * Starts a method and adds it to this context's table.
     *
     * @throws IllegalArgumentException if its name is invalid or taken
     * @throws Exception if it fails to start
     */
    synchronized void addMethod(CommunicationMethod method, int preference) {
        addMethod(method, preference, false);
    }

    private void addMethod(CommunicationMethod method, int preference, boolean deliversOnSend) {
        String name = method.name();
        if (!Descriptor.validName(name) || methods.containsKey(name)) {
            throw new IllegalArgumentException("method name '" + name + "' is invalid or already installed");
        }
        try {
            method.start(new MethodContextImpl(id, this, FrameHeader.MAX_LENGTH + maxWirePayload(),
                new RateLimitedLog(System.getLogger("io.polylink.method." + name), TimeUnit.SECONDS.toNanos(1)),
                settings.host()));
        } catch (Exception e) {
            method.stop();
            throw new PolylinkException("method " + name + " failed to start: " + e.getMessage(), e);
        }
        methods.put(name, new InstalledMethod(method, preference, method.localAddress(), deliversOnSend));
        changed();
    }

    /** Removes a method: its links select again on their next send. */
    synchronized void removeMethod(CommunicationMethod method) {
        InstalledMethod installed = methods.get(method.name());
        if (installed == null || installed.method() != method) {
            return;
        }
        methods.remove(method.name());
        changed();
        pool.forgetMethod(method.name());
        try {
            method.stop();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "method " + method.name() + " failed to stop cleanly", e);
        }
        channels.values().removeIf(c -> c.connection().method().equals(method.name()));
        flows.values().forEach(f -> f.departed(method.name()));
    }

    synchronized void addTransform(Transform transform) {
        if (!Descriptor.validName(transform.name()) || transforms.putIfAbsent(transform.name(), transform) != null) {
            throw new IllegalArgumentException("transform name '" + transform.name()
                + "' is invalid or already installed");
        }
        changed();
    }

    synchronized void removeTransform(Transform transform) {
        if (transforms.remove(transform.name(), transform)) {
            changed();
            channels.values().forEach(c -> c.forget(transform.name()));
            flows.values().forEach(f -> f.departed(transform.name()));
        }
    }

    synchronized void policy(SelectionPolicy policy) {
        this.policy = policy;
        generation++;
    }

    /** With a greedy reference the replacement arrives first, so only the current one resets. */
    synchronized void policyGone(SelectionPolicy gone) {
        if (policy == gone) {
            policy(FirstApplicablePolicy.INSTANCE);
        }
    }

    synchronized void registry(NameRegistry registry) {
        this.registry = registry;
    }

    synchronized void registryGone(NameRegistry gone) {
        if (registry == gone) {
            registry = null;
        }
    }

    /** Adds the stacks of a descriptor file (deploy/NAME.method) to this context's table. */
    synchronized void deploy(String file, List<String> stacks) {
        if (deployed.put(file, stacks)) {
            changed();
        }
    }

    /** Withdraws the stacks a descriptor file added. */
    synchronized void withdraw(String file) {
        if (deployed.remove(file)) {
            changed();
        }
    }

    /** Who hears of methods and transforms selection meets but lacks ({@link Provisioner} in OSGi). */
    synchronized void onDemand(InstallOnDemand listener) {
        onDemand = listener;
    }

    /** A provisioner may be replaced before the old one is gone, so only the current one resets. */
    synchronized void onDemandGone(InstallOnDemand gone) {
        if (onDemand == gone) {
            onDemand = InstallOnDemand.NONE;
        }
    }

    /** @return text for the reason of a "not installed" entry; see {@link InstallOnDemand#missing} */
    String missing(String namespace, String name) {
        return onDemand.missing(namespace, name);
    }

    /** Rebuilds the table and makes every link select again. Caller holds the lock. */
    private void changed() {
        List<Descriptor> entries = new ArrayList<>();
        entries.add(new Descriptor(LocalMethod.NAME, new byte[0]));
        deployed.appendTo(entries, name -> methods.containsKey(name) ? methods.get(name).address() : null,
            transforms.keySet());
        if (settings.table().isEmpty()) {
            methods.values().stream()
                .filter(m -> !m.method().name().equals(LocalMethod.NAME))
                .sorted(Comparator.comparingInt(InstalledMethod::preference)
                    .thenComparing(m -> m.method().name()))
                .forEach(m -> entries.add(new Descriptor(m.method().name(), m.address())));
        } else {
            for (String stack : settings.table()) {
                Descriptor wanted = new Descriptor(stack, new byte[0]);
                InstalledMethod m = methods.get(wanted.method());
                if (m != null && !wanted.method().equals(LocalMethod.NAME)
                    && transforms.keySet().containsAll(wanted.transforms())) {
                    entries.add(new Descriptor(stack, m.address()));
                }
            }
        }
        table = EncodedTable.of(DescriptorTable.of(DeployedStacks.distinct(entries)));
        generation++;
    }

    // ---- used by the rest of the core

    int generation() {
        return generation;
    }

    HostIdentity host() {
        return settings.host();
    }

    SelectionPolicy policy() {
        return policy;
    }

    EndpointTable endpoints() {
        return endpoints;
    }

    ExecutorService executor() {
        return executor;
    }

    ControlSender controlSender() {
        return controlSender;
    }

    int maxWirePayload() {
        return settings.maxMessageSize() + settings.maxMessageSize() / 255 + TRANSFORM_ALLOWANCE;
    }

    CommunicationMethod method(String name) {
        InstalledMethod m = methods.get(name);
        return m == null ? null : m.method();
    }

    Transform transform(String name) {
        return transforms.get(name);
    }

    Startpoint startpointTo(EndpointImpl endpoint) {
        return new StartpointImpl(this, new TargetRef[] {new TargetRef(id, endpoint.id(), table)},
            LinkOptions.DEFAULT);
    }

    StartpointImpl startpoint(TargetRef[] targets) {
        return new StartpointImpl(this, targets, LinkOptions.DEFAULT);
    }

    MessageBufferImpl own(MessageBuffer buffer) {
        if (buffer instanceof MessageBufferImpl b) {
            return b;
        }
        throw new IllegalArgumentException("message buffer " + buffer + " was not made by a Polylink "
            + "context; allocate it with Context.allocateBuffer");
    }

    StartpointImpl own(Startpoint startpoint) {
        if (startpoint instanceof StartpointImpl s) {
            return s;
        }
        throw new IllegalArgumentException("startpoint " + startpoint + " was not made by a Polylink "
            + "context; get it from an endpoint, a message or Context.startpoint(text)");
    }

    /** @return the flow for targets in {@code peer} with this table and these settings */
    Flow flow(ContextId peer, EncodedTable table, LinkOptions options) {
        return flows.computeIfAbsent(new Flow.Key(peer, table.id(), options), key -> newFlow(key, table));
    }

    private Flow newFlow(Flow.Key key, EncodedTable table) {
        long flowId;
        Flow flow;
        do {
            flowId = ThreadLocalRandom.current().nextLong();
            flow = new Flow(this, key, table, flowId);
        } while (flowsById.putIfAbsent(flowId, flow) != null);
        return flow;
    }

    /** Binds a flow to a chosen entry, connecting if needed. */
    Flow.Binding bind(Flow flow, Descriptor chosen) {
        if (chosen.method().equals(LocalMethod.NAME) && chosen.transforms().isEmpty()) {
            return Flow.Binding.LOCAL;
        }
        InstalledMethod m = methods.get(chosen.method());
        if (m == null) {
            throw new LinkException("method " + chosen.method() + " left while the link was being set up");
        }
        Channel channel = channel(flow, chosen, m);
        return new Flow.Binding(channel, channel.bind(flow, chosen.transforms()));
    }

    private Channel channel(Flow flow, Descriptor chosen, InstalledMethod m) {
        ContextId target = flow.key().peer();
        Map<String, String> parameters = flow.key().options().parameters(chosen.method());
        return pool.get(new ChannelPool.Key(target, chosen.method(), parameters),
            () -> connect(m.method(), target, chosen, parameters), this::channelFor);
    }

    /**
     * Connects, on the retry thread, to an entry a flow fell back from because connecting to it
     * failed; the connection stays pooled for the flow's next send to take.
     */
    void reconnectLater(Flow flow, Descriptor entry, int index) {
        try {
            retries.execute(() -> {
                boolean works = false;
                try {
                    InstalledMethod m = methods.get(entry.method());
                    works = m != null && channel(flow, entry, m).isOpen();
                } catch (RuntimeException stillFailing) {
                    // the flow stays where it is and tries again later
                } finally {
                    flow.reconnected(index, works);
                }
            });
        } catch (RejectedExecutionException closing) {
            flow.reconnected(index, false);
        }
    }

    /** @return where large buffers sent more than once keep their bytes */
    StorePool stores() {
        return stores;
    }

    /** Runs a short task on the retry thread after {@code delayMs}; nothing once the context closes. */
    void later(Runnable task, long delayMs) {
        try {
            retries.schedule(task, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // the context is closing: the flows the task would move or tidy go with it
        }
    }

    /**
     * @return the live flow to {@code peer} with this id, or {@code null}: an acknowledgement from
     *     a peer naming a flow to another peer is ignored
     */
    Flow flowOf(ContextId peer, long flowId) {
        Flow flow = flowsById.get(flowId);
        return flow != null && flow.key().peer().equals(peer) ? flow : null;
    }

    InboundFlow inboundFlow(InboundFlow.Key key, int first) {
        return inbound.get(key, first);
    }

    /** @return the flows to peers, for tests */
    Collection<Flow> flows() {
        return flows.values();
    }

    /** @return one line per flow, for the shell */
    List<String> describeFlows() {
        return flows.values().stream().map(Flow::describe).sorted().toList();
    }

    /** @return why the flow whose hex id starts with {@code prefix} is on its stack */
    String explainFlow(String prefix) {
        List<Flow> matching = flows.values().stream()
            .filter(f -> String.format("%016x", f.id()).startsWith(prefix.toLowerCase())).toList();
        if (matching.size() != 1) {
            return (matching.isEmpty() ? "no link" : matching.size() + " links") + " with an id starting '"
                + prefix + "'; polylink:links lists them";
        }
        Flow flow = matching.get(0);
        Explanation e = flow.explanation(0);
        return flow + (e == null ? ": not bound yet" : "\n" + e.entries().stream()
            .map(x -> "  " + (x.index() + 1) + ". " + x).collect(Collectors.joining("\n")));
    }

    /** A flow with RSRs unacknowledged found no way to its peer: it tries again in a second. */
    void flowStranded(Flow flow, int waiting, long abandonInMs, RuntimeException why) {
        log.warn("flow stranded", flow + ": " + waiting + " unacknowledged RSRs wait for a way to the peer, "
            + "tried each second, dropped in " + abandonInMs + " ms: " + why.getMessage(), null);
        later(flow::retry, 1000);
    }

    /** Moves a flow, and sends what was handed off to it, on the executor: never a method's thread. */
    void moveLater(Flow flow) {
        try {
            executor.execute(flow::recover);
        } catch (RejectedExecutionException closing) {
            // the context is closing: nothing to move to
        }
    }

    /** An RSR an inline handler handed off could not be sent; its sender has returned already. */
    void handOffFailed(Flow flow, RuntimeException why) {
        counters.error();
        log.warn("hand-off failed", flow + ": an RSR sent from an inline handler while the link was busy could "
            + "not follow: " + why.getMessage(), null);
    }

    /** A stranded flow gave up: its RSRs are gone, and so is it. */
    void flowAbandoned(Flow flow, int dropped, long bytes, RuntimeException why) {
        flows.remove(flow.key(), flow);
        flowsById.remove(flow.id(), flow);
        counters.error();
        LOG.log(Level.WARNING, flow + ": dropped " + dropped + " RSRs (" + bytes + " bytes) the peer never "
            + "acknowledged, after " + settings.abandonAfterMs() + " ms without a way to it: "
            + why.getMessage());
    }

    long abandonAfterMs() {
        return settings.abandonAfterMs();
    }

    long quietAckMs() {
        return settings.quietAckMs();
    }

    private Connection connect(CommunicationMethod method, ContextId target, Descriptor chosen,
                               Map<String, String> parameters) {
        try {
            return method.connect(target, chosen.address(), parameters);
        } catch (LinkException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new LinkException(method.name() + " failed to connect to "
                + method.describe(chosen.address()) + ": " + e, e);
        }
    }

    @Override
    public FrameReceiver open(Connection connection) {
        return channelFor(connection);
    }

    /** @return the open connections of one method, for the shell */
    List<Connection> connections(String method) {
        return channels.keySet().stream().filter(c -> c.method().equals(method) && c.isOpen()).toList();
    }

    private Channel channelFor(Connection connection) {
        return channels.computeIfAbsent(connection, c -> {
            InstalledMethod m = methods.get(c.method());
            return new Channel(this, c, m != null && m.deliversOnSend());
        });
    }

    void sent(int bytes) {
        counters.sent(bytes);
    }

    void received(int bytes) {
        counters.received(bytes);
    }

    void sendFailed() {
        counters.error();
    }

    /** @param cause why it failed, unless that was logged already or it closed in order */
    void channelClosed(Channel channel, Throwable cause) {
        channels.remove(channel.connection(), channel);
        pool.forget(channel);
        for (Flow flow : flows.values()) {
            switch (flow.closed(channel)) {
                case RETIRED -> {
                    flows.remove(flow.key(), flow);
                    flowsById.remove(flow.id(), flow);
                }
                // Not on this thread: it is a method's, and moving connects.
                case MOVE -> moveLater(flow);
                case NOTHING -> { }
            }
        }
        if (cause != null) {
            log.warn("connection lost", CONNECTIONS_LOST_PER_INTERVAL, channel + " closed: " + cause.getMessage(), null);
        }
    }

    /** This side refused a stack a peer announced; the peer is told and moves the flow. */
    void stackRefused(Channel channel, String transforms, String why) {
        counters.error();
        log.warn("stack refused", "refusing stack '" + transforms + "' on " + channel + ": " + why
            + "; the peer moves its link to another stack", null);
    }

    /** A peer refused a stack of {@code channel}: the flows on it move, off this thread. */
    void peerRefused(Channel channel, int stackId, String why) {
        for (Flow flow : flows.values()) {
            if (flow.refused(channel, stackId, why)) {
                moveLater(flow);
            }
        }
    }

    void badFrame(Channel channel, RuntimeException problem) {
        counters.error();
        log.warn("bad frame", "closing " + channel + ": " + problem.getMessage(), null);
    }

    void unknownEndpoint(ContextId from, String method, int endpoint, int handler) {
        counters.error();
        log.warn("unknown endpoint", "RSR for handler " + handler + " of unknown or closed endpoint "
            + endpoint + " from " + from + " over " + method + " dropped", null);
    }

    void unknownHandler(EndpointImpl endpoint, int handler) {
        counters.error();
        log.warn("unknown handler", "RSR for unknown handler " + handler + " of " + endpoint
            + " dropped; register the handler before sending to it", null);
    }

    void handlerFailed(EndpointImpl endpoint, int handler, Throwable failure) {
        counters.error();
        log.warn("handler failed", "handler " + handler + " of " + endpoint + " threw " + failure, failure);
    }

    private NameRegistry registry(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new PolylinkException("invalid name '" + name + "': use 1 to 128 letters, digits, "
                + "'.', '_' and '-', not starting with '.'");
        }
        NameRegistry r = registry;
        if (r == null) {
            throw new PolylinkException("no naming registry is available; start the core's directory "
                + "registry or register a NameRegistry service");
        }
        return r;
    }

    /** @return whether {@link #close()} began: flows then let go rather than move */
    boolean closing() {
        return closed;
    }

        private void checkOpen() {
        if (closed) {
            throw new PolylinkException(this + " is closed");
        }
    }

    /** Stops every method and handler thread. Idempotent. */
    synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        channels.values().forEach(Channel::acknowledgeDelivered);
        for (InstalledMethod m : List.copyOf(methods.values())) {
            removeMethod(m.method());
        }
        for (Transform t : List.copyOf(transforms.values())) {
            removeTransform(t);
        }
        flows.clear();
        flowsById.clear();
        executor.shutdown();
        try {
            controlSender.close();
            retries.shutdownNow();
            retries.awaitTermination(5, TimeUnit.SECONDS);
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                executor.shutdownNow();
                LOG.log(Level.WARNING, "handlers of " + this + " did not finish within 5 s; interrupted");
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
