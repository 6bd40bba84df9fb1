package io.polylink.core.internal.link;

import io.polylink.ContextId;
import io.polylink.Startpoint;
import io.polylink.core.internal.buffer.CarriedStartpoints;
import io.polylink.core.internal.endpoint.Endpoints;
import io.polylink.core.internal.flow.Flows;
import io.polylink.core.internal.observe.Counters;
import io.polylink.core.internal.registry.Installed;
import io.polylink.core.internal.select.LinkOptions;
import io.polylink.core.internal.select.StackSelector;
import io.polylink.core.internal.wire.StartpointCodec.TargetRef;
import io.polylink.core.internal.wire.StartpointCodec;

/**
 * Where this context's startpoints come from (its endpoints, their text, the messages that carry
 * them), and what they share: the flows they send through, selection, the context's counters.
 * Called on the application's threads and, for startpoints read from messages, on receiving ones.
 */
public final class Startpoints implements CarriedStartpoints {

    private final ContextId self;
    final Installed installed;
    final Flows flows;
    final StackSelector selector;
    final Endpoints endpoints;
    final Counters counters;

    /** @param counters the context's counters, which count every send too */
    public Startpoints(ContextId self, Installed installed, Flows flows, StackSelector selector, Endpoints endpoints,
                       Counters counters) {
        this.self = self;
        this.installed = installed;
        this.flows = flows;
        this.selector = selector;
        this.endpoints = endpoints;
        this.counters = counters;
    }

    /** @return a startpoint to an endpoint of this context, carrying the context's table now */
    public StartpointImpl to(int endpoint) {
        return startpoint(new TargetRef[] {new TargetRef(self, endpoint, installed.table())});
    }

    /** @throws io.polylink.MalformedMessageException naming what is wrong with {@code text} */
    public StartpointImpl fromText(String text) {
        return startpoint(StartpointCodec.fromText(text));
    }

    @Override
    public StartpointImpl startpoint(TargetRef[] targets) {
        return new StartpointImpl(this, targets, LinkOptions.DEFAULT);
    }

    @Override
    public TargetRef[] targets(Startpoint startpoint) {
        return own(startpoint).codecTargets();
    }

    /**
     * @return the startpoint as this implementation
     * @throws IllegalArgumentException if another implementation made it
     */
    public static StartpointImpl own(Startpoint startpoint) {
        if (startpoint instanceof StartpointImpl s) {
            return s;
        }
        throw new IllegalArgumentException("startpoint " + startpoint + " was not made by a Polylink "
            + "context; get it from an endpoint, a message or Context.startpoint(text)");
    }
}
