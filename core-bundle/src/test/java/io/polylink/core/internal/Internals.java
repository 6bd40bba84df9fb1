package io.polylink.core.internal;

import io.polylink.core.internal.buffer.MessageBuffers;
import io.polylink.core.internal.channel.PeerChannels;
import io.polylink.core.internal.concurrent.ControlSender;
import io.polylink.core.internal.flow.Flows;
import io.polylink.core.internal.registry.Installed;
import io.polylink.core.internal.select.StackSelector;

/**
 * A test's way into the parts of an embedded context, for tests of one part that need a real
 * context around it.
 */
public final class Internals {

    private Internals() {}

    /** @return where the context's message buffers come from */
    public static MessageBuffers buffers(EmbeddedContext context) {
        return runtime(context).buffers;
    }

    /** @return the context's flows */
    public static Flows flows(EmbeddedContext context) {
        return runtime(context).flows;
    }

    /** @return the context's channels, where methods hand it their connections */
    public static PeerChannels channels(EmbeddedContext context) {
        return runtime(context).channels;
    }

    /** @return the context's selection */
    public static StackSelector selector(EmbeddedContext context) {
        return runtime(context).selector;
    }

    /** @return the context's methods, transforms and own table */
    public static Installed installed(EmbeddedContext context) {
        return runtime(context).installed;
    }

    /** @return the thread that sends the control frames of the context's channels */
    public static ControlSender controlSender(EmbeddedContext context) {
        return runtime(context).controlSender;
    }

    private static ContextRuntime runtime(EmbeddedContext context) {
        return (ContextRuntime) context.context();
    }
}
