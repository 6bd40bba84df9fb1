package io.polylink.core.internal.channel;

import io.polylink.ContextId;

/**
 * What the channels tell the flows of this context that send on them: acknowledgements, stacks
 * the peer refused, connections that closed. Called on receiving threads and the control
 * thread, never under a channel's send lock.
 */
public interface OutboundFlows {

    /** A flow as an acknowledgement sees it. */
    interface Acknowledged {

        /** @return the flow's id, as its stack announcements carry it */
        long id();

        /** @return whether the flow retired: a later acknowledgement naming its id is for its successor */
        boolean retired();

        /** The peer delivered everything of the flow up to {@code sequence}; never blocks. */
        void acknowledged(int sequence);
    }

    /**
     * @return the live flow to {@code peer} with this id, or {@code null}: an acknowledgement from
     *     a peer naming a flow to another peer is ignored
     */
    Acknowledged find(ContextId peer, long flowId);

    /** The peer refused a stack of {@code channel}: the flows on it move. */
    void refused(PeerChannel channel, int stackId, String why);

    /** {@code channel} closed: the flows on it move or retire. */
    void closed(PeerChannel channel);
}
