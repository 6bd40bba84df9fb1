package io.polylink.core.internal.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.PipeMethod;
import io.polylink.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A link that fell back because connecting to the preferred entry failed: the preferred entry is
 * connected to again in the background, never on the sender's thread, and the link returns to it
 * once that works, whether or not it still sends.
 */
class ReconnectTest {

    private final PipeMethod.Network network = new PipeMethod.Network();
    private final EmbeddedContext a = EmbeddedContext.open();
    private final EmbeddedContext b = EmbeddedContext.open();
    private final PipeMethod fastA = new PipeMethod(network, "fast");
    private final AtomicInteger delivered = new AtomicInteger();
    private final Startpoint toB;
    private final MessageBuffer message;
    private int sent;

    ReconnectTest() {
        a.add(fastA, 10).add(new PipeMethod(network, "slow"), 20);
        b.add(new PipeMethod(network, "fast"), 10).add(new PipeMethod(network, "slow"), 20);
        Endpoint sink = b.context().createEndpoint().register(1, (e, m) -> delivered.incrementAndGet());
        toB = a.context().startpoint(sink.startpoint().toText());
        message = a.context().allocateBuffer(8);
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
        Await.noThreads("polylink-");
    }

    @Test
    void aLinkThatFellBackForAFailedConnectReturnsOnceConnectingWorksAgain() {
        fastA.failConnects("port closed");
        send();
        awaitLinkOn("slow");

        fastA.failConnects(null);
        Await.until(() -> send() && on("fast"), Duration.ofSeconds(15),
            () -> "the link stayed on slow after fast could connect again: " + a.links());
        Await.until(() -> delivered.get() == sent, Duration.ofSeconds(10),
            () -> delivered.get() + " of " + sent + " RSRs delivered");
    }

    @Test
    void aLinkThatFellBackReturnsOnceConnectingWorksAgainThoughItSendsNoMore() {
        fastA.failConnects("port closed");
        send();
        awaitLinkOn("slow");

        fastA.failConnects(null);
        Await.until(() -> on("fast"), Duration.ofSeconds(15),
            () -> "the idle link stayed on slow after fast could connect again: " + a.links());
        assertEquals(1, delivered.get());
    }

    @Test
    void connectingAgainToAFailingEntryNeverStallsTheSender() {
        fastA.failConnects("port closed");
        send();
        awaitLinkOn("slow");

        Await.until(() -> send() && fastA.connectingThreads.size() >= 3, Duration.ofSeconds(15),
            () -> "fewer than two background connects: " + fastA.connectingThreads);
        List<String> again = fastA.connectingThreads.subList(1, fastA.connectingThreads.size());
        assertEquals(List.of(), again.stream().filter(t -> !t.startsWith("polylink-retry-")).toList(),
            "connects after the first were made on the sender's thread");
        assertEquals(Thread.currentThread().getName(), fastA.connectingThreads.get(0));
        Await.until(() -> delivered.get() == sent, Duration.ofSeconds(10),
            () -> delivered.get() + " of " + sent + " RSRs delivered");
    }

    private boolean send() {
        toB.send(1, message.clear().putLong(sent++));
        return true;
    }

    private void awaitLinkOn(String method) {
        Await.until(() -> on(method), Duration.ofSeconds(10), () -> "the link is not on " + method + ": " + a.links());
    }

    private boolean on(String method) {
        List<String> links = a.links();
        return links.size() == 1 && links.get(0).contains(" " + method + " ");
    }
}
