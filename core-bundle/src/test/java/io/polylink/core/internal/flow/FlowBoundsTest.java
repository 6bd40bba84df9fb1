package io.polylink.core.internal.flow;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Descriptor;
import io.polylink.Endpoint;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.Internals;
import io.polylink.core.internal.PipeMethod;
import io.polylink.testkit.Await;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Each startpoint with a table not seen before makes a flow: a peer that sends the system
 * endpoint echoes whose reply startpoints each carry a new table cannot make the context hold
 * more than {@link Flows#MAX_PER_PEER} flows to it.
 */
class FlowBoundsTest {

    private static final int REPLY = 5;

    private final PipeMethod.Network network = new PipeMethod.Network();
    private final EmbeddedContext a = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10);
    private final EmbeddedContext b = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10);
    private final EmbeddedContext c = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10);

    @AfterEach
    void close() {
        a.close();
        b.close();
        c.close();
        Await.noThreads("polylink-");
    }

    @Test
    void echoesWithEverNewReplyTablesMakeAtMostTheBoundOfFlowsToTheirPeer() {
        AtomicInteger replies = new AtomicInteger();
        Endpoint reply = a.context().createEndpoint().register(REPLY, (e, m) -> replies.incrementAndGet());
        Startpoint echo = a.context().startpoint(b.systemStartpoint().toText());
        int echoes = 2 * Flows.MAX_PER_PEER;

        for (int i = 0; i < echoes; i++) {
            byte[] address = ByteBuffer.allocate(4).putInt(i).array();
            Startpoint fresh = reply.startpoint().editTable(t -> t.insert(t.size(), new Descriptor("elsewhere", address)));
            echo.send(0, a.context().allocateBuffer(128).putStartpoint(fresh).putInt(REPLY));
        }
        Await.until(() -> b.context().statistics().messagesReceived() >= echoes, Duration.ofSeconds(20),
            () -> b.context().statistics().messagesReceived() + " of " + echoes + " echoes reached b");

        int flows = Internals.flows(b).describe().size();
        assertTrue(flows <= Flows.MAX_PER_PEER, flows + " flows from b to a");
        assertTrue(replies.get() > 0, "b answered some");

        List<String> atC = new CopyOnWriteArrayList<>();
        Startpoint toC = c.context().createEndpoint().register(REPLY, (e, m) -> atC.add(m.getString())).startpoint();
        c.context().startpoint(b.systemStartpoint().toText()).send(0, c.context().allocateBuffer(128)
            .putStartpoint(toC).putInt(REPLY).putString("still here"));
        Await.until(() -> atC.equals(List.of("still here")), Duration.ofSeconds(10), () -> "b no longer answers c");
    }
}
