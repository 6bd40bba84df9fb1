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
     * @return the largest frame the core sends or accepts; a method closes a connection that
     *     announces a larger one
     */
    int maxFrameSize();
}
