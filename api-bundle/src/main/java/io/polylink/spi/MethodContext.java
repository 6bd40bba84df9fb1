package io.polylink.spi;

import io.polylink.ContextId;
import org.osgi.annotation.versioning.ProviderType;

/** What the core gives a method when it starts it. */
@ProviderType
public interface MethodContext {

    /** @return the id of the context the method runs in */
    ContextId contextId();

    /** @return where the method hands the frames it receives */
    InboundSink inbound();

    /**
     * @return the largest frame the core sends or accepts, header and payload together (the
     *     core's largest RSR with room for its frame header and transforms), not counting what the
     *     method adds to carry a frame. A send of a larger frame fails with
     *     {@link io.polylink.LinkException} and the connection goes on; a peer that announces a
     *     larger one has its connection closed, with a cause naming the length, before any buffer
     *     is made for it
     */
    int maxFrameSize();

    /**
     * @return where the method logs problems that peers or the environment can cause in floods
     *     (bad frames, refused connections, failed accepts), a few lines per kind per second
     * @since 0.5
     */
    ProblemLog problems();

    /**
     * @return the identity of the host this context runs on, the same for every method here: a
     *     method that works only within one host compares it with the one in a peer's address
     * @since 0.5
     */
    HostIdentity host();
}
