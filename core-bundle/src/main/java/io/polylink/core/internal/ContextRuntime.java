package io.polylink.core.internal;

import io.polylink.Context;
import io.polylink.ContextId;
import io.polylink.DescriptorTable;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.PolylinkException;
import io.polylink.Startpoint;
import io.polylink.Statistics;
import io.polylink.core.internal.buffer.MessageBuffers;
import io.polylink.core.internal.buffer.StorePool;
import io.polylink.core.internal.channel.PeerChannels;
import io.polylink.core.internal.concurrent.ControlSender;
import io.polylink.core.internal.concurrent.HandlerPool;
import io.polylink.core.internal.concurrent.RetryTimer;
import io.polylink.core.internal.config.CoreSettings;
import io.polylink.core.internal.config.SystemTargets;
import io.polylink.core.internal.endpoint.Endpoints;
import io.polylink.core.internal.endpoint.SystemEndpoint;
import io.polylink.core.internal.flow.Flows;
import io.polylink.core.internal.link.Startpoints;
import io.polylink.core.internal.local.LocalMethod;
import io.polylink.core.internal.naming.Names;
import io.polylink.core.internal.observe.Counters;
import io.polylink.core.internal.observe.Problems;
import io.polylink.core.internal.observe.RateLimitedLog;
import io.polylink.core.internal.registry.Installed;
import io.polylink.core.internal.registry.MethodContextImpl;
import io.polylink.core.internal.select.StackSelector;
import io.polylink.core.internal.wire.FrameHeader;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.spi.Transform;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One context: the {@link Context} an application uses, and the assembly of the parts behind it
 * (its registry of methods and transforms, selection, endpoints, channels, flows, startpoints and
 * buffers, and the threads they share). Plain Java; {@link ContextComponent} wires it into OSGi,
 * {@link EmbeddedContext} runs it without.
 *
 * <p>Methods and transforms may come and go at any time, on the caller's thread: each change
 * makes every link select again on its next send, and the flows on what left move.
 */
final class ContextRuntime implements Context {

    private static final System.Logger LOG = System.getLogger("io.polylink.core");
    /** Room transforms may add to a payload: lz4's worst case plus headers and tags. */
    private static final int TRANSFORM_ALLOWANCE = 4096;

    private final ContextId id;
    private volatile CoreSettings settings;
    private final Counters counters = new Counters();
    private final HandlerPool handlers;
    final ControlSender controlSender;
    private final RetryTimer timer;
    final Installed installed;
    final StackSelector selector;
    final Names naming = new Names();
    private final Endpoints endpoints;
    final PeerChannels channels;
    final Flows flows;
    private final Startpoints startpoints;
    final MessageBuffers buffers;
    private final Endpoint system;
    private volatile boolean closed;

    ContextRuntime(CoreSettings settings) {
        this.settings = settings;
        this.id = settings.id() != null ? settings.id() : ContextId.random();
        Problems problems = new Problems(counters, this::later);
        this.timer = new RetryTimer("polylink-retry-" + id, problems);
        this.handlers = new HandlerPool(settings.handlerThreads(), toString(), problems);
        this.controlSender = new ControlSender("polylink-control-" + id, problems);
        this.installed = new Installed(settings.table(), settings.origin(), settings.required());
        this.selector = new StackSelector(installed);
        this.endpoints = new Endpoints(this, handlers, counters, problems, this::startpointTo);
        this.channels = new PeerChannels(id, settings.origin(), installed, endpoints, controlSender, timer, problems,
            settings.quietAckMs(), settings.maxMessageSize(), maxWirePayload());
        this.flows = new Flows(installed, selector, channels, endpoints, timer, handlers, problems,
            settings.abandonAfterMs());
        this.startpoints = new Startpoints(id, installed, flows, selector, endpoints, counters);
        this.buffers = new MessageBuffers(settings.maxMessageSize(), new StorePool(timer::later), startpoints);
        channels.attach(flows, buffers);
        addMethod(new LocalMethod(), Integer.MIN_VALUE, true);
        this.system = SystemEndpoint.create(this,
            peer -> this.settings.systemTargets() == SystemTargets.ANY || channels.linked(peer), problems);
    }

    /** Runs a short task on the retry thread: for the problem log, made before the timer, and for JMX. */
    void later(Runnable task, long delayMs) {
        timer.later(task, delayMs);
    }

    /**
     * Applies what of {@code next} can change while the context runs: the table, the handler
     * threads, how long flows wait for acknowledgements and for a way to their peer, the stacks
     * required of peers and whom the system endpoint sends to. Links select again on their next
     * send if the table or the requirements changed; when the requirements changed, every open
     * connection closes too, so the stacks its peer announced are checked again as it comes back,
     * and the flows replay what it had not delivered. The other settings must be those the context
     * was made with; a change of them needs a new context.
     */
    void reconfigure(CoreSettings next) {
        settings = next;
        installed.configure(next.table());
        handlers.resize(next.handlerThreads());
        flows.abandonAfterMs(next.abandonAfterMs());
        channels.quietAckMs(next.quietAckMs());
        if (!next.required().equals(installed.required())) {
            installed.require(next.required());
            installed.methodNames().stream().filter(method -> !method.equals(LocalMethod.NAME))
                .forEach(method -> channels.connections(method).forEach(Connection::close));
        }
    }

    /** For the endpoints, made before the startpoints they hand out, which send through the flows. */
    private Startpoint startpointTo(int endpoint) {
        return startpoints.to(endpoint);
    }

    /** @return the endpoint with the built-in echo and relay services */
    Endpoint system() {
        return system;
    }

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
        if (closed) {
            throw new PolylinkException(this + " is closed");
        }
        return endpoints.create(attachment);
    }

    @Override
    public MessageBuffer allocateBuffer(int initialCapacity) {
        return buffers.allocate(initialCapacity);
    }

    @Override
    public Startpoint startpoint(String text) {
        return startpoints.fromText(text);
    }

    @Override
    public void publish(String name, Startpoint startpoint) {
        naming.publish(name, Startpoints.own(startpoint).toText());
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
    public int progress() {
        return installed.progress();
    }

    @Override
    public void handBackReceiving() {
        installed.handBackReceiving();
    }

    @Override
    public String toString() {
        return "context " + id;
    }

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
        installed.addMethod(method, preference, deliversOnSend, new MethodContextImpl(id, channels,
            FrameHeader.MAX_LENGTH + maxWirePayload(),
            new RateLimitedLog(System.getLogger("io.polylink.method." + method.name()), TimeUnit.SECONDS.toNanos(1),
                timer::later),
            settings.host()));
    }

    /** Removes a method: its links select again on their next send, and the flows on it move. */
    synchronized void removeMethod(CommunicationMethod method) {
        if (!installed.removeMethod(method)) {
            return;
        }
        channels.methodLeaving(method.name());
        try {
            method.stop();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "method " + method.name() + " failed to stop cleanly", e);
        }
        channels.methodGone(method.name());
        flows.departed(method.name());
    }

    /** @throws IllegalArgumentException if its name is invalid or taken */
    synchronized void addTransform(Transform transform) {
        installed.addTransform(transform);
    }

    /** Removes a transform: its links select again on their next send, and the flows on it move. */
    synchronized void removeTransform(Transform transform) {
        if (installed.removeTransform(transform)) {
            channels.transformGone(transform.name());
            flows.departed(transform.name());
        }
    }

    private int maxWirePayload() {
        return settings.maxMessageSize() + settings.maxMessageSize() / 255 + TRANSFORM_ALLOWANCE;
    }

    /** Stops every method and thread of this context. Idempotent. */
    synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        flows.close();
        channels.acknowledgeDelivered();
        for (CommunicationMethod m : installed.methods()) {
            removeMethod(m);
        }
        for (Transform t : installed.transforms()) {
            removeTransform(t);
        }
        flows.clear();
        handlers.shutdown();
        controlSender.close();
        timer.close();
        handlers.close();
    }
}
