package io.polylink.core.internal.channel;

import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.LinkException;
import io.polylink.core.internal.buffer.MessageBuffers;
import io.polylink.core.internal.concurrent.ControlSender;
import io.polylink.core.internal.concurrent.RetryTimer;
import io.polylink.core.internal.endpoint.Endpoints;
import io.polylink.core.internal.observe.Problems;
import io.polylink.core.internal.registry.Installed;
import io.polylink.core.internal.wire.Origin;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import io.polylink.spi.InboundSink;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This context's channels, one per open connection: those its flows connect (pooled, so links to
 * one peer over one method share a connection) and those methods report. Methods call in through
 * {@link InboundSink} on their own threads; flows connect on the thread that binds them.
 */
public final class PeerChannels implements InboundSink {

    /**
     * Lines a second for lost connections, each naming its own: at one, a second peer lost within
     * the second went unnamed; a few keep a flood of them bounded.
     */
    private static final int CONNECTIONS_LOST_PER_SECOND = 10;

    final ContextId self;
    final Origin here;
    final Installed installed;
    final Endpoints endpoints;
    final InboundFlows inbound = new InboundFlows();
    final ControlSender controlSender;
    final RetryTimer timer;
    final Problems problems;
    /** How long a received flow stays quiet before it is acknowledged unasked; changes apply to the next check. */
    volatile long quietAckMs;
    final int maxMessageSize;
    final int maxWirePayload;
    /** Set once, before any connection: the flows, and the startpoints the buffers make, need the channels. */
    OutboundFlows flows;
    MessageBuffers buffers;
    private final Map<Connection, PeerChannel> byConnection = new ConcurrentHashMap<>();
    /** Open channels by peer, so {@link #linked} costs no walk over every channel. */
    private final Map<ContextId, Integer> openByPeer = new ConcurrentHashMap<>();
    private final ChannelPool pool = new ChannelPool();

    /**
     * @param here where this context runs, as it tells its peers
     * @param quietAckMs how long a received flow stays quiet before what it delivered is
     *     acknowledged unasked; 0 for never
     * @param maxMessageSize the largest payload an RSR may decode to
     * @param maxWirePayload the largest payload a frame may carry, transformed
     */
    public PeerChannels(ContextId self, Origin here, Installed installed, Endpoints endpoints,
                        ControlSender controlSender, RetryTimer timer, Problems problems, long quietAckMs,
                        int maxMessageSize, int maxWirePayload) {
        this.self = self;
        this.here = here;
        this.installed = installed;
        this.endpoints = endpoints;
        this.controlSender = controlSender;
        this.timer = timer;
        this.problems = problems;
        this.quietAckMs = quietAckMs;
        this.maxMessageSize = maxMessageSize;
        this.maxWirePayload = maxWirePayload;
    }

    /** @param quietAckMs how long a received flow stays quiet before it is acknowledged unasked from now on */
    public void quietAckMs(long quietAckMs) {
        this.quietAckMs = quietAckMs;
    }

    /**
     * Completes the channels, once, before any connection opens.
     *
     * @param flows whom to tell of acknowledgements, refusals and closes
     * @param buffers where the buffers that received messages are read through come from
     */
    public void attach(OutboundFlows flows, MessageBuffers buffers) {
        this.flows = flows;
        this.buffers = buffers;
    }

    @Override
    public FrameReceiver open(Connection connection) {
        return channel(connection).receiver();
    }

    /**
     * @return an open channel to {@code peer} by the chosen entry's method, pooled
     * @throws LinkException if the method left or cannot connect
     */
    public PeerChannel outbound(ContextId peer, Descriptor chosen, Map<String, String> parameters) {
        CommunicationMethod method = installed.method(chosen.method());
        if (method == null) {
            throw new LinkException("method " + chosen.method() + " left while the link was being set up");
        }
        return pool.get(new ChannelPool.Key(peer, chosen.method(), parameters),
            () -> connect(method, peer, chosen, parameters), this::channel);
    }

    /** What the method throws, an Error too, refuses the entry, as a connection that failed would. */
    private static Connection connect(CommunicationMethod method, ContextId peer, Descriptor chosen,
                                      Map<String, String> parameters) {
        try {
            return method.connect(peer, chosen.address(), parameters);
        } catch (LinkException e) {
            throw e;
        } catch (Throwable t) {
            throw new LinkException(method.name() + " failed to connect to "
                + method.describe(chosen.address()) + ": " + t, t);
        }
    }

    private PeerChannel channel(Connection connection) {
        return byConnection.computeIfAbsent(connection, c -> {
            openByPeer.merge(c.peer(), 1, Integer::sum);
            return new PeerChannel(this, c, installed.deliversOnSend(c.method()));
        });
    }

    /** @return whether this context has an open channel with {@code peer}, whichever side opened it */
    public boolean linked(ContextId peer) {
        return openByPeer.containsKey(peer);
    }

    /** Forgets a channel: the flows it carried go idle. */
    private void forget(PeerChannel channel) {
        if (byConnection.remove(channel.connection(), channel)) {
            openByPeer.computeIfPresent(channel.connection().peer(), (p, n) -> n == 1 ? null : n - 1);
            channel.gone();
        }
    }

    /** @param cause why it failed, unless that was logged already or it closed in order */
    void closed(PeerChannel channel, Throwable cause) {
        forget(channel);
        pool.forget(channel);
        flows.closed(channel);
        if (cause != null) {
            problems.warn("connection lost", CONNECTIONS_LOST_PER_SECOND, channel + " closed: " + cause.getMessage());
        }
    }

    /** A method is leaving: links no longer take its pooled connections. */
    public void methodLeaving(String method) {
        pool.forgetMethod(method);
    }

    /** A method left: its channels go. */
    public void methodGone(String method) {
        byConnection.values().stream().filter(c -> c.connection().method().equals(method)).toList()
            .forEach(this::forget);
    }

    /** A transform left: every channel drops its session and the stacks that used it. */
    public void transformGone(String transform) {
        byConnection.values().forEach(c -> c.forget(transform));
    }

    /** This context closes in order: every channel tells its peer what it delivered. */
    public void acknowledgeDelivered() {
        byConnection.values().forEach(PeerChannel::acknowledgeDelivered);
    }

    /** @return the open connections of one method, for the shell */
    public List<Connection> connections(String method) {
        return byConnection.keySet().stream().filter(c -> c.method().equals(method) && c.isOpen()).toList();
    }
}
