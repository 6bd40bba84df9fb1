package io.polylink.method.tcp.internal;

import io.polylink.ContextId;
import io.polylink.spi.HostIdentity;
import io.polylink.spi.InboundSink;
import io.polylink.spi.MethodContext;
import io.polylink.spi.ProblemLog;

/**
 * A method context made of its parts: for a test that starts a method without a core, or that
 * hands a method the core's context with the inbound sink watched.
 */
public record TestMethodContext(ContextId contextId, InboundSink inbound, int maxFrameSize, ProblemLog problems,
                                HostIdentity host) implements MethodContext {

    /** @return a problem log that logs every line to {@code io.polylink.method.tcp}, as the core's would a few a second */
    public static ProblemLog logging() {
        System.Logger logger = System.getLogger("io.polylink.method.tcp");
        return new ProblemLog() {
            @Override
            public void warn(String kind, String message, Throwable cause) {
                logger.log(System.Logger.Level.WARNING, message, cause);
            }

            @Override
            public void warn(String kind, int perSecond, String message, Throwable cause) {
                warn(kind, message, cause);
            }
        };
    }

    /** @return {@code context} with frames going to {@code inbound} instead */
    public static TestMethodContext with(MethodContext context, InboundSink inbound) {
        return new TestMethodContext(context.contextId(), inbound, context.maxFrameSize(), context.problems(),
            context.host());
    }
}
