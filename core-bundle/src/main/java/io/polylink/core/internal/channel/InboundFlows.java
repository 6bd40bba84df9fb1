package io.polylink.core.internal.channel;

import io.polylink.ContextId;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The flows this context receives, bounded so that no peer can make it hold more than the bounds
 * say, whatever it announces. A flow some open channel carries is <em>live</em>: it is never
 * forgotten, since forgetting it would let a copy on another channel be delivered again. Once no
 * channel carries it, it is <em>idle</em> and kept, least recently announced first, so a sender
 * that moves it to a new connection carries on where it was; only a flow idle through
 * {@value #IDLE_CAPACITY} newer idle ones, or through {@value #PER_PEER} newer flows of its own
 * peer, is forgotten, and a flow forgotten and announced again starts over from the sequence
 * number its announcement names.
 *
 * <p>Live flows are bounded by the channels (each carries at most 255 stacks) and per peer by
 * {@value #PER_PEER}: a peer with that many live flows here has its next announcement refused.
 * Called on receiving threads at each announcement and when a channel goes, never per RSR.
 */
final class InboundFlows {

    static final int IDLE_CAPACITY = 16_384;
    static final int PER_PEER = 1024;

    /** One peer's flows: its idle ones, least recently announced first, and how many are live. */
    private static final class PeerFlows {
        final LinkedHashMap<Long, InboundFlow> idle = new LinkedHashMap<>();
        int live;

        int size() {
            return idle.size() + live;
        }
    }

    private final Map<InboundFlow.Key, InboundFlow> live = new HashMap<>();
    /** Every peer's idle flows, least recently announced first. */
    private final LinkedHashMap<InboundFlow.Key, InboundFlow> idle = new LinkedHashMap<>();
    private final Map<ContextId, PeerFlows> byPeer = new HashMap<>();

    /**
     * A channel carries a flow from now on, as its peer announced it.
     *
     * @param first the sequence number the announcement says to expect first, for a flow not known
     * @return the flow, or {@code null} if its peer has {@value #PER_PEER} flows live here already
     */
    synchronized InboundFlow carry(InboundFlow.Key key, int first) {
        InboundFlow flow = live.get(key);
        if (flow != null) {
            flow.carriers++;
            return flow;
        }
        PeerFlows peer = byPeer.computeIfAbsent(key.peer(), p -> new PeerFlows());
        flow = idle.remove(key);
        if (flow != null) {
            peer.idle.remove(key.flow());
        } else {
            if (peer.size() >= PER_PEER && !forgetEldest(peer)) {
                return null;
            }
            flow = new InboundFlow(key, first);
        }
        flow.carriers = 1;
        peer.live++;
        live.put(key, flow);
        return flow;
    }

    /** A channel that carried {@code flow} is gone: once none does, the flow is idle. */
    synchronized void release(InboundFlow flow) {
        if (--flow.carriers > 0) {
            return;
        }
        InboundFlow.Key key = flow.key();
        live.remove(key);
        PeerFlows peer = byPeer.get(key.peer());
        peer.live--;
        peer.idle.put(key.flow(), flow);
        idle.put(key, flow);
        if (idle.size() > IDLE_CAPACITY) {
            Iterator<InboundFlow.Key> eldest = idle.keySet().iterator();
            InboundFlow.Key gone = eldest.next();
            eldest.remove();
            PeerFlows of = byPeer.get(gone.peer());
            of.idle.remove(gone.flow());
            forgetIfEmpty(gone.peer(), of);
        }
    }

    /** @return whether an idle flow of the peer was forgotten to make room */
    private boolean forgetEldest(PeerFlows peer) {
        Iterator<InboundFlow> eldest = peer.idle.values().iterator();
        if (!eldest.hasNext()) {
            return false;
        }
        idle.remove(eldest.next().key());
        eldest.remove();
        return true;
    }

    private void forgetIfEmpty(ContextId id, PeerFlows peer) {
        if (peer.size() == 0) {
            byPeer.remove(id);
        }
    }
}
