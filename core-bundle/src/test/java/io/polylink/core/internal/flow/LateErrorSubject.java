package io.polylink.core.internal.flow;

import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.Internals;
import io.polylink.core.internal.PipeMethod;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The process {@link LateErrorTest} debugs: two contexts over the pipe test method, and a main
 * thread that, turn after turn, sends on the link between them and runs each operation that takes
 * a flow's or a channel's lock on that thread, with a call of {@link #checkpoint} after each. Each
 * turn's first send goes through a new startpoint, which routes it, over a connection that breaks,
 * so the flow binds a new one. Whatever an operation throws is taken as the test's doing: the test
 * judges by the locks alone.
 */
final class LateErrorSubject {

    /** What the test has the JVM raise in the main thread, as it raises a fault on a mapping. */
    static final InternalError INJECTED = new InternalError("raised by LateErrorTest");
    /** Set by the test when it has seen enough. */
    static volatile boolean stop;

    /** What the pipe method throws at the first send of each turn. */
    private static final Error BREAK = new Error("the pipe breaks, so the flow binds a new connection");

    private static final int SINK = 1;

    private LateErrorSubject() {}

    public static void main(String[] args) {
        PipeMethod.Network network = new PipeMethod.Network();
        PipeMethod pipe = new PipeMethod(network, "pipe");
        try (EmbeddedContext a = EmbeddedContext.open().add(pipe, 10);
             EmbeddedContext b = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10)) {
            String sink = b.context().createEndpoint().register(SINK, (e, m) -> { }).startpoint().toText();
            MessageBuffer message = a.context().allocateBuffer(8);
            AtomicLong sent = new AtomicLong();
            Flows flows = Internals.flows(a);
            List<Consumer<OutboundFlow>> onEachFlow = List.of(
                OutboundFlow::recover,
                OutboundFlow::retry,
                OutboundFlow::probeIdle,
                flow -> flow.departed("absent"),
                flow -> flow.refused(null, 0, "absent"),
                flow -> flow.describe(System.nanoTime()),
                OutboundFlow::sent,
                OutboundFlow::unacknowledged);
            long failed = 0;
            while (!stop) {
                Startpoint toB = a.context().startpoint(sink);
                pipe.nextSendError.set(BREAK);
                failed += turn(() -> toB.send(SINK, message.clear().putLong(sent.getAndIncrement())));
                failed += turn(() -> toB.send(SINK, message.clear().putLong(sent.getAndIncrement())));
                failed += turn(() -> Internals.channels(a).transformGone("absent"));
                for (Consumer<OutboundFlow> operation : onEachFlow) {
                    for (OutboundFlow flow : flows.all()) {
                        failed += turn(() -> operation.accept(flow));
                    }
                }
            }
            System.out.println(sent.get() + " RSRs sent; " + failed + " operations threw");
        }
    }

    /** @return 1 if the operation threw, else 0 */
    private static int turn(Runnable operation) {
        int failed = 0;
        try {
            operation.run();
        } catch (Throwable t) {
            failed = 1;
        }
        // The debug interface interrupts a thread it raises an Error in, which the JVM's fault does not.
        Thread.interrupted();
        checkpoint();
        return failed;
    }

    /** Where the test looks at the locks: this thread is in no region of them here. */
    static void checkpoint() {
        // a place for the test's breakpoint
    }
}
