package io.polylink.core.internal.flow;

import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.Explanation;
import io.polylink.LinkException;
import io.polylink.core.internal.buffer.MessageBufferImpl;
import io.polylink.core.internal.channel.OutboundFlows;
import io.polylink.core.internal.channel.PeerChannel;
import io.polylink.core.internal.channel.PeerChannels;
import io.polylink.core.internal.concurrent.RetryTimer;
import io.polylink.core.internal.endpoint.Endpoints;
import io.polylink.core.internal.observe.Problems;
import io.polylink.core.internal.observe.RoundTrips;
import io.polylink.core.internal.registry.Installed;
import io.polylink.core.internal.select.LinkOptions;
import io.polylink.core.internal.select.StackSelector;
import io.polylink.core.internal.wire.EncodedTable;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

/**
 * This context's flows to its peers, by what makes targets share one (peer, table, link
 * settings) and by id, for acknowledgements. Startpoints look flows up on the sending thread;
 * the channels report acknowledgements, refusals and closes here on theirs, and what that asks of
 * a flow that would block (moving it) goes to the handler pool.
 *
 * <p>Flows to one peer are bounded ({@value #MAX_PER_PEER}): each startpoint with a table not
 * seen before makes a flow, and a peer that sends them (to the system endpoint, say) must not
 * make this context hold flows without end. Past the bound, idle flows retire to make room.
 */
public final class Flows implements OutboundFlows {

    /** Flows to one peer at most; a connection carries at most 255 stacks anyway. */
    static final int MAX_PER_PEER = 256;

    final Installed installed;
    final StackSelector selector;
    final PeerChannels channels;
    final Endpoints endpoints;
    final RetryTimer timer;
    /** How long RSRs wait for a way to their peer before they are dropped; a change applies at each stranded flow's next try. */
    volatile long abandonAfterMs;
    private final Executor handlers;
    private final Problems problems;
    private final Map<OutboundFlow.Key, OutboundFlow> byKey = new ConcurrentHashMap<>();
    private final Map<Long, OutboundFlow> byId = new ConcurrentHashMap<>();
    private final Map<ContextId, Integer> perPeer = new ConcurrentHashMap<>();
    private volatile boolean closing;
    private volatile FlowWatcher watcher = FlowWatcher.NONE;

    /**
     * @param handlers where flows move, off the threads of methods
     * @param abandonAfterMs how long RSRs wait for a way to their peer before they are dropped
     */
    public Flows(Installed installed, StackSelector selector, PeerChannels channels, Endpoints endpoints,
                 RetryTimer timer, Executor handlers, Problems problems, long abandonAfterMs) {
        this.installed = installed;
        this.selector = selector;
        this.channels = channels;
        this.endpoints = endpoints;
        this.timer = timer;
        this.handlers = handlers;
        this.problems = problems;
        this.abandonAfterMs = abandonAfterMs;
    }

    /** @param abandonAfterMs how long RSRs wait for a way to their peer before they are dropped, from now on */
    public void abandonAfterMs(long abandonAfterMs) {
        this.abandonAfterMs = abandonAfterMs;
    }

    /**
     * @return the flow for targets in {@code peer} with this table and these settings
     * @throws LinkException if a new flow is needed and {@value #MAX_PER_PEER} flows to the peer all
     *     have RSRs in flight
     */
    public OutboundFlow flow(ContextId peer, EncodedTable table, LinkOptions options) {
        OutboundFlow.Key key = new OutboundFlow.Key(peer, table.id(), options);
        OutboundFlow flow = byKey.get(key);
        if (flow != null) {
            return flow;
        }
        makeRoom(peer);
        return byKey.computeIfAbsent(key, k -> newFlow(k, table));
    }

    private OutboundFlow newFlow(OutboundFlow.Key key, EncodedTable table) {
        long id;
        OutboundFlow flow;
        do {
            id = ThreadLocalRandom.current().nextLong();
            flow = new OutboundFlow(this, key, table, id);
        } while (byId.putIfAbsent(id, flow) != null);
        perPeer.merge(key.peer(), 1, Integer::sum);
        watcher.opened(flow);
        return flow;
    }

    /** Retires idle flows to {@code peer} while it has {@value #MAX_PER_PEER}; a rare walk over the flows. */
    private void makeRoom(ContextId peer) {
        if (perPeer.getOrDefault(peer, 0) < MAX_PER_PEER) {
            return;
        }
        for (OutboundFlow flow : byKey.values()) {
            if (flow.key().peer().equals(peer) && flow.retireIfIdle()) {
                forget(flow);
                if (perPeer.getOrDefault(peer, 0) < MAX_PER_PEER) {
                    return;
                }
            }
        }
        throw new LinkException("this context has " + MAX_PER_PEER + " flows to " + peer + ", each with RSRs in "
            + "flight, and makes no more to it until some are acknowledged");
    }

    /**
     * Sends one RSR through {@code first}, or through its successor if it retired meanwhile.
     *
     * @throws LinkException if the flow keeps retiring under the sender
     */
    public void send(OutboundFlow first, int endpoint, int handler, MessageBufferImpl message) {
        OutboundFlow current = first;
        // A flow retires only with nothing unacknowledged, so its successor carries on in order.
        for (int attempt = 0; !current.send(endpoint, handler, message); attempt++) {
            if (attempt == 8) {
                throw new LinkException(first + " keeps retiring under the sender");
            }
            current = flow(current.key().peer(), current.table(), current.key().options());
        }
    }

    @Override
    public OutboundFlow find(ContextId peer, long flowId) {
        OutboundFlow flow = byId.get(flowId);
        return flow != null && flow.key().peer().equals(peer) ? flow : null;
    }

    @Override
    public void closed(PeerChannel channel) {
        for (OutboundFlow flow : byKey.values()) {
            switch (flow.closed(channel)) {
                case RETIRED -> forget(flow);
                // Not on this thread: it is a method's, and moving connects.
                case MOVE -> moveLater(flow);
                case NOTHING -> { }
            }
        }
    }

    /** A peer refused a stack of {@code channel}: the flows on it move, off this thread. */
    @Override
    public void refused(PeerChannel channel, int stackId, String why) {
        for (OutboundFlow flow : byKey.values()) {
            if (flow.refused(channel, stackId, why)) {
                moveLater(flow);
            }
        }
    }

    /** A method or transform left: the flows on it move to what is left. */
    public void departed(String methodOrTransform) {
        byKey.values().forEach(f -> f.departed(methodOrTransform));
    }

    /** Moves a flow, and sends what was handed off to it, on the handler pool: never a method's thread. */
    void moveLater(OutboundFlow flow) {
        try {
            handlers.execute(flow::recover);
        } catch (RejectedExecutionException closing) {
            // the context is closing: nothing to move to
        }
    }

    /** A flow with RSRs unacknowledged found no way to its peer: it tries again in a second. */
    void stranded(OutboundFlow flow, int waiting, long abandonInMs, RuntimeException why) {
        problems.warn("flow stranded", flow + ": " + waiting + " unacknowledged RSRs wait for a way to the peer, "
            + "tried each second, dropped in " + abandonInMs + " ms: " + why.getMessage());
        timer.later(flow::retry, 1000);
    }

    /** A stranded flow gave up: its RSRs are gone, and so is it. */
    void abandoned(OutboundFlow flow, int dropped, long bytes, RuntimeException why) {
        forget(flow);
        problems.lost(flow + ": dropped " + dropped + " RSRs (" + bytes + " bytes) the peer never "
            + "acknowledged, after " + abandonAfterMs + " ms without a way to it: " + why.getMessage(), dropped);
    }

    /** The policy failed to say where RSRs go by size: the flow takes its link's choice for every size. */
    void sizeChoicesFailed(OutboundFlow flow, RuntimeException why) {
        problems.warn("size classes", flow + ": every size goes by the link's choice: " + why.getMessage());
    }

    /** A size class's entry could not be connected: its sizes go by the link's choice until the flow binds again. */
    void sizeChoiceFailed(OutboundFlow flow, Descriptor entry, RuntimeException why) {
        problems.warn("size classes", flow + ": RSRs chosen for " + entry.stack() + " go by the link's choice, "
            + "as it could not be connected: " + why.getMessage());
    }

    /** An RSR an inline handler handed off could not be sent; its sender has returned already. */
    void handOffFailed(OutboundFlow flow, RuntimeException why) {
        problems.error("hand-off failed", flow + ": an RSR sent from an inline handler while the link was busy "
            + "could not follow: " + why.getMessage());
    }

    private void forget(OutboundFlow flow) {
        if (byKey.remove(flow.key(), flow)) {
            perPeer.computeIfPresent(flow.key().peer(), (p, n) -> n == 1 ? null : n - 1);
        }
        if (byId.remove(flow.id(), flow)) {
            watcher.closed(flow);
        }
    }

    /** @return whether the context is closing: flows then let go rather than move */
    boolean closing() {
        return closing;
    }

    /** The context begins to close: from now on flows let go rather than move. */
    public void close() {
        closing = true;
    }

    /**
     * Tells {@code watcher}, from now on, of each flow that begins or ends, and at once of those
     * there are ({@link FlowWatcher#NONE}: tells none).
     */
    public void watch(FlowWatcher watcher) {
        this.watcher = watcher;
        byId.values().forEach(watcher::opened);
    }

    /** Forgets every flow, once the context's methods are gone. */
    public void clear() {
        byId.values().forEach(OutboundFlow::closedWithContext);
        byId.values().forEach(watcher::closed);
        byKey.clear();
        byId.clear();
        perPeer.clear();
    }

    /** @return the flows, in no order */
    Collection<OutboundFlow> all() {
        return byKey.values();
    }

    /** @return how many flows there are */
    public int count() {
        return byId.size();
    }

    /** @return the round trips of every flow there is, together */
    public RoundTrips.Snapshot roundTrips() {
        return RoundTrips.combined(all().stream().map(OutboundFlow::roundTrips).toList());
    }

    /**
     * @return one line per flow, what the shell's {@code polylink:links} lists; within about
     *     {@link OutboundFlow#REPORT_WAIT_NANOS} whatever the flows' senders hold
     */
    public List<String> describe() {
        long deadline = System.nanoTime() + OutboundFlow.REPORT_WAIT_NANOS;
        return all().stream().map(f -> f.describe(deadline)).sorted().toList();
    }

    /** @return why the flow whose hex id starts with {@code prefix} is on its stack, for the shell */
    public String explain(String prefix) {
        List<OutboundFlow> matching = all().stream()
            .filter(f -> String.format("%016x", f.id()).startsWith(prefix.toLowerCase())).toList();
        if (matching.size() != 1) {
            return (matching.isEmpty() ? "no link" : matching.size() + " links") + " with an id starting '"
                + prefix + "'; polylink:links lists them";
        }
        OutboundFlow flow = matching.get(0);
        Explanation e = flow.explanation(0);
        return flow + (e == null ? ": not bound yet" : "\n" + e.entries().stream()
            .map(x -> "  " + (x.index() + 1) + ". " + x).collect(Collectors.joining("\n")));
    }
}
