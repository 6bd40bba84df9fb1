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
import io.polylink.core.internal.buffer.CarriedStartpoints;
import io.polylink.core.internal.buffer.MessageBuffers;
import io.polylink.core.internal.buffer.StorePool;
import io.polylink.core.internal.concurrent.ControlSender;
import io.polylink.core.internal.concurrent.HandlerPool;
import io.polylink.core.internal.concurrent.RetryTimer;
import io.polylink.core.internal.config.CoreSettings;
import io.polylink.core.internal.endpoint.Endpoints;
import io.polylink.core.internal.endpoint.SystemEndpoint;
import io.polylink.core.internal.local.LocalMethod;
import io.polylink.core.internal.naming.Naming;
import io.polylink.core.internal.observe.Counters;
import io.polylink.core.internal.observe.Problems;
import io.polylink.core.internal.observe.RateLimitedLog;
import io.polylink.core.internal.registry.Installed;
import io.polylink.core.internal.registry.MethodContextImpl;
import io.polylink.core.internal.select.LinkOptions;
import io.polylink.core.internal.select.StackSelector;
import io.polylink.core.internal.wire.EncodedTable;
import io.polylink.core.internal.wire.FrameHeader;
import io.polylink.core.internal.wire.StartpointCodec.TargetRef;
import io.polylink.core.internal.wire.StartpointCodec;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import io.polylink.spi.InboundSink;
import io.polylink.spi.Transform;
import java.lang.System.Logger.Level;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The runtime of one context: its methods and transforms, its descriptor table, its endpoints,
 * and the channels its links travel on. Plain Java; {@link ContextComponent} wires it into OSGi.
 *
 * <p>Methods and transforms may come and go at any time. Each change bumps the
 * {@linkplain #generation() generation}, and every link selects again on its next send.
 */
final class ContextRuntime implements Context, InboundSink, CarriedStartpoints {

    private static final System.Logger LOG = System.getLogger("io.polylink.core");
    /** Room transforms may add to a payload: lz4's worst case plus headers and tags. */
    private static final int TRANSFORM_ALLOWANCE = 4096;
    /**
     * Lines a second for lost connections, each naming its own: at one, a second peer lost within
     * the second went unnamed; a few keep a flood of them bounded.
     */
    private static final int CONNECTIONS_LOST_PER_SECOND = 10;

    private final ContextId id;
    private final CoreSettings settings;
    private final Counters counters = new Counters();
    private final Problems problems = new Problems(counters);
    final Installed installed;
    final StackSelector selector;
    final Naming naming = new Naming();
    private final HandlerPool handlers;
    private final ControlSender controlSender;
    private final RetryTimer timer;
    private final Map<Connection, Channel> channels = new ConcurrentHashMap<>();
    private final ChannelPool pool = new ChannelPool();
    final MessageBuffers buffers;
    final Endpoints endpoints;
    private final Map<Flow.Key, Flow> flows = new ConcurrentHashMap<>();
    private final Map<Long, Flow> flowsById = new ConcurrentHashMap<>();
    private final InboundFlows inbound = new InboundFlows();
    private final Endpoint system;
    private volatile boolean closed;

    ContextRuntime(CoreSettings settings) {
        this.settings = settings;
        this.id = settings.id() != null ? settings.id() : ContextId.random();
        this.installed = new Installed(settings.table());
        this.selector = new StackSelector(installed);
        this.handlers = new HandlerPool(settings.handlerThreads(), toString());
        this.controlSender = new ControlSender("polylink-control-" + id);
        this.timer = new RetryTimer("polylink-retry-" + id);
        this.buffers = new MessageBuffers(settings.maxMessageSize(), new StorePool(timer::later), this);
        this.endpoints = new Endpoints(this, handlers, counters, problems, this::startpointTo);
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
        return installed.table().table();
    }

    @Override
    public Endpoint createEndpoint() {
        return createEndpoint(null);
    }

    @Override
    public Endpoint createEndpoint(Object attachment) {
        checkOpen();
        return endpoints.create(attachment);
    }

    @Override
    public MessageBuffer allocateBuffer(int initialCapacity) {
        return buffers.allocate(initialCapacity);
    }

    @Override
    public Startpoint startpoint(String text) {
        return startpoint(StartpointCodec.fromText(text));
    }

    @Override
    public void publish(String name, Startpoint startpoint) {
        naming.publish(name, own(startpoint).toText());
    }

    @Override
    public Optional<Startpoint> lookup(String name) {
        return naming.lookup(name).map(this::startpoint);
    }

    @Override
    public void unpublish(String name) {
        naming.unpublish(name);
    }

    @Override
    public Set<String> methods() {
        return installed.methodNames();
    }

    @Override
    public Set<String> transforms() {
        return installed.transformNames();
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
     * @throws PolylinkException if it fails to start
     */
    synchronized void addMethod(CommunicationMethod method, int preference) {
        addMethod(method, preference, false);
    }

    private void addMethod(CommunicationMethod method, int preference, boolean deliversOnSend) {
        String name = method.name();
        installed.addMethod(method, preference, deliversOnSend, new MethodContextImpl(id, this,
            FrameHeader.MAX_LENGTH + maxWirePayload(),
            new RateLimitedLog(System.getLogger("io.polylink.method." + name), TimeUnit.SECONDS.toNanos(1)),
            settings.host()));
    }

    /** Removes a method: its links select again on their next send. */
    synchronized void removeMethod(CommunicationMethod method) {
        if (!installed.removeMethod(method)) {
            return;
        }
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
        installed.addTransform(transform);
    }

    synchronized void removeTransform(Transform transform) {
        if (installed.removeTransform(transform)) {
            channels.values().forEach(c -> c.forget(transform.name()));
            flows.values().forEach(f -> f.departed(transform.name()));
        }
    }

    // ---- used by the rest of the core

    int generation() {
        return installed.generation();
    }

    Endpoints endpoints() {
        return endpoints;
    }

    HandlerPool executor() {
        return handlers;
    }

    ControlSender controlSender() {
        return controlSender;
    }

    int maxWirePayload() {
        return settings.maxMessageSize() + settings.maxMessageSize() / 255 + TRANSFORM_ALLOWANCE;
    }

    CommunicationMethod method(String name) {
        return installed.method(name);
    }

    Transform transform(String name) {
        return installed.transform(name);
    }

    private Startpoint startpointTo(int endpoint) {
        return new StartpointImpl(this, new TargetRef[] {new TargetRef(id, endpoint, installed.table())},
            LinkOptions.DEFAULT);
    }

    @Override
    public StartpointImpl startpoint(TargetRef[] targets) {
        return new StartpointImpl(this, targets, LinkOptions.DEFAULT);
    }

    @Override
    public TargetRef[] targets(Startpoint startpoint) {
        return own(startpoint).codecTargets();
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
        CommunicationMethod m = installed.method(chosen.method());
        if (m == null) {
            throw new LinkException("method " + chosen.method() + " left while the link was being set up");
        }
        Channel channel = channel(flow, chosen, m);
        return new Flow.Binding(channel, channel.bind(flow, chosen.transforms()));
    }

    private Channel channel(Flow flow, Descriptor chosen, CommunicationMethod m) {
        ContextId target = flow.key().peer();
        Map<String, String> parameters = flow.key().options().parameters(chosen.method());
        return pool.get(new ChannelPool.Key(target, chosen.method(), parameters),
            () -> connect(m, target, chosen, parameters), this::channelFor);
    }

    /**
     * Connects, on the retry thread, to an entry a flow fell back from because connecting to it
     * failed; the connection stays pooled for the flow's next send to take.
     */
    void reconnectLater(Flow flow, Descriptor entry, int index) {
        try {
            timer.execute(() -> {
                boolean works = false;
                try {
                    CommunicationMethod m = installed.method(entry.method());
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

    /** Runs a short task on the retry thread after {@code delayMs}; nothing once the context closes. */
    void later(Runnable task, long delayMs) {
        timer.later(task, delayMs);
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
        problems.warn("flow stranded", flow + ": " + waiting + " unacknowledged RSRs wait for a way to the peer, "
            + "tried each second, dropped in " + abandonInMs + " ms: " + why.getMessage());
        later(flow::retry, 1000);
    }

    /** Moves a flow, and sends what was handed off to it, on the executor: never a method's thread. */
    void moveLater(Flow flow) {
        try {
            handlers.execute(flow::recover);
        } catch (RejectedExecutionException closing) {
            // the context is closing: nothing to move to
        }
    }

    /** An RSR an inline handler handed off could not be sent; its sender has returned already. */
    void handOffFailed(Flow flow, RuntimeException why) {
        problems.error("hand-off failed", flow + ": an RSR sent from an inline handler while the link was busy "
            + "could not follow: " + why.getMessage());
    }

    /** A stranded flow gave up: its RSRs are gone, and so is it. */
    void flowAbandoned(Flow flow, int dropped, long bytes, RuntimeException why) {
        flows.remove(flow.key(), flow);
        flowsById.remove(flow.id(), flow);
        problems.lost(flow + ": dropped " + dropped + " RSRs (" + bytes + " bytes) the peer never "
            + "acknowledged, after " + settings.abandonAfterMs() + " ms without a way to it: " + why.getMessage());
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
        return channels.computeIfAbsent(connection, c -> new Channel(this, c, installed.deliversOnSend(c.method())));
    }

    void sent(int bytes) {
        counters.sent(bytes);
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
            problems.warn("connection lost", CONNECTIONS_LOST_PER_SECOND, channel + " closed: " + cause.getMessage());
        }
    }

    /** This side refused a stack a peer announced; the peer is told and moves the flow. */
    void stackRefused(Channel channel, String transforms, String why) {
        problems.error("stack refused", "refusing stack '" + transforms + "' on " + channel + ": " + why
            + "; the peer moves its link to another stack");
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
        problems.error("bad frame", "closing " + channel + ": " + problem.getMessage());
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
        for (CommunicationMethod m : installed.methods()) {
            removeMethod(m);
        }
        for (Transform t : installed.transforms()) {
            removeTransform(t);
        }
        flows.clear();
        flowsById.clear();
        handlers.shutdown();
        controlSender.close();
        timer.close();
        handlers.close();
    }
}
