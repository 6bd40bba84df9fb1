package io.polylink.core.internal.link;

import io.polylink.DescriptorTable;
import io.polylink.Explanation;
import io.polylink.MessageBuffer;
import io.polylink.PolylinkException;
import io.polylink.Startpoint;
import io.polylink.Statistics;
import io.polylink.core.internal.buffer.MessageBufferImpl;
import io.polylink.core.internal.endpoint.EndpointImpl;
import io.polylink.core.internal.flow.OutboundFlow;
import io.polylink.core.internal.observe.Counters;
import io.polylink.core.internal.registry.Installed;
import io.polylink.core.internal.select.LinkOptions;
import io.polylink.core.internal.wire.EncodedTable;
import io.polylink.core.internal.wire.StartpointCodec.TargetRef;
import io.polylink.core.internal.wire.StartpointCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A startpoint: its targets, its selection settings, and a route per target chosen on first use.
 * Targets in other contexts (and in this one over a transform) go through the flow for their
 * peer, table and settings, which selects, numbers and keeps what was sent.
 *
 * <p>The send path reads one volatile field ({@link #links}) and, while the context's generation
 * is unchanged, reuses the routes in it: no allocation, no lock. A change of settings or of the
 * context's methods makes the next send select again.
 */
public final class StartpointImpl implements Startpoint {

    private final Startpoints owner;
    private final Installed installed;
    private final Counters counters = new Counters();
    /** The context's counters, read once here: every send counts there too. */
    private final Counters contextCounters;
    private volatile Links links;

    /** Targets, settings and the routes chosen under them; replaced whole when settings change. */
    private static final class Links {
        final TargetRef[] targets;
        final LinkOptions options;
        final Route[] routes;
        final Explanation[] explanations;

        Links(TargetRef[] targets, LinkOptions options) {
            this.targets = targets;
            this.options = options;
            this.routes = new Route[targets.length];
            this.explanations = new Explanation[targets.length];
        }
    }

    StartpointImpl(Startpoints owner, TargetRef[] targets, LinkOptions options) {
        if (targets.length == 0 || targets.length > StartpointCodec.MAX_TARGETS) {
            throw new IllegalArgumentException("a startpoint has 1 to " + StartpointCodec.MAX_TARGETS
                + " targets, not " + targets.length);
        }
        this.owner = owner;
        this.installed = owner.installed;
        this.contextCounters = owner.counters;
        this.links = new Links(targets, options);
    }

    TargetRef[] codecTargets() {
        return links.targets;
    }

    @Override
    public void send(int handlerId, MessageBuffer message) {
        EndpointImpl.checkHandlerId(handlerId);
        MessageBufferImpl m = MessageBufferImpl.own(message);
        Links l = links;
        int generation = installed.generation();
        try {
            for (int i = 0; i < l.routes.length; i++) {
                Route route = l.routes[i];
                if (route == null || !route.isCurrent(generation)) {
                    route = select(l, i);
                }
                route.send(handlerId, m);
            }
        } catch (PolylinkException e) {
            counters.error();
            contextCounters.error();
            throw e;
        }
        counters.sent(m.length());
        contextCounters.sent(m.length());
    }

    private Route select(Links l, int i) {
        TargetRef t = l.targets[i];
        OutboundFlow.Routing r = owner.flows.flow(t.context(), t.table(), l.options).route(t.endpoint());
        Route route = r.local() ? new LocalRoute(owner.endpoints, t.endpoint(), r.generation())
            : new FlowRoute(owner.flows, r.flow(), t.endpoint(), r.generation());
        l.explanations[i] = r.explanation();
        l.routes[i] = route;
        return route;
    }

    @Override
    public List<Startpoint.Target> targets() {
        return Arrays.stream(links.targets)
            .map(t -> new Startpoint.Target(t.context(), t.endpoint(), t.table().table()))
            .toList();
    }

    @Override
    public Startpoint join(Startpoint other) {
        TargetRef[] mine = links.targets;
        TargetRef[] theirs = Startpoints.own(other).codecTargets();
        TargetRef[] all = Arrays.copyOf(mine, mine.length + theirs.length);
        System.arraycopy(theirs, 0, all, mine.length, theirs.length);
        return new StartpointImpl(owner, all, links.options);
    }

    @Override
    public Startpoint copy() {
        Links l = links;
        return new StartpointImpl(owner, l.targets, l.options);
    }

    @Override
    public synchronized Startpoint editTable(UnaryOperator<DescriptorTable> edit) {
        Links l = links;
        TargetRef[] edited = new TargetRef[l.targets.length];
        for (int i = 0; i < edited.length; i++) {
            TargetRef t = l.targets[i];
            DescriptorTable table = Objects.requireNonNull(edit.apply(t.table().table()), "edited table");
            edited[i] = new TargetRef(t.context(), t.endpoint(),
                table.equals(t.table().table()) ? t.table() : EncodedTable.of(table, t.table().origin()));
        }
        links = new Links(edited, l.options);
        return this;
    }

    @Override
    public synchronized Startpoint pin(String stack) {
        links = new Links(links.targets, links.options.withPin(stack));
        return this;
    }

    @Override
    public synchronized Startpoint forbid(String methodOrStack) {
        links = new Links(links.targets, links.options.withForbidden(Objects.requireNonNull(methodOrStack)));
        return this;
    }

    @Override
    public synchronized Startpoint parameter(String method, String key, String value) {
        links = new Links(links.targets, links.options.withParameter(method, key, value));
        return this;
    }

    @Override
    public List<Explanation> explain() {
        Links l = links;
        int generation = installed.generation();
        List<Explanation> out = new ArrayList<>(l.targets.length);
        for (int i = 0; i < l.targets.length; i++) {
            Route route = l.routes[i];
            Explanation last = l.explanations[i];
            if (route != null && last != null && route.isCurrent(generation)) {
                out.add(route instanceof FlowRoute f ? f.explanation() : last);
            } else {
                TargetRef t = l.targets[i];
                out.add(owner.selector.explain(t.context(), t.endpoint(), t.table(), l.options));
            }
        }
        return out;
    }

    @Override
    public String toText() {
        return StartpointCodec.toText(links.targets);
    }

    @Override
    public Statistics statistics() {
        return counters.snapshot();
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("startpoint to ");
        TargetRef[] targets = links.targets;
        for (int i = 0; i < targets.length; i++) {
            out.append(i == 0 ? "" : ", ").append("endpoint ").append(targets[i].endpoint())
                .append('@').append(targets[i].context());
        }
        return out.toString();
    }
}
