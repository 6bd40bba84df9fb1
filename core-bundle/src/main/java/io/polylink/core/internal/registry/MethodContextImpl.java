package io.polylink.core.internal.registry;

import io.polylink.ContextId;
import io.polylink.spi.HostIdentity;
import io.polylink.spi.InboundSink;
import io.polylink.spi.MethodContext;
import io.polylink.spi.ProblemLog;

/** What the core hands a method when it starts it. */
public record MethodContextImpl(ContextId contextId, InboundSink inbound, int maxFrameSize, ProblemLog problems,
                         HostIdentity host) implements MethodContext {}
