package io.polylink.core.internal.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Endpoint;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.PipeMethod;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The system endpoint sends only to contexts it has a connection with, unless configured to send
 * anywhere: an asker writes the reply startpoint, and with it the addresses the context would dial.
 */
class SystemEndpointTest {

    private static final int REPLY = 5;

    private final PipeMethod.Network network = new PipeMethod.Network();
    private final PipeMethod pipeAtB = new PipeMethod(network, "pipe");
    private final EmbeddedContext a = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10);
    private final EmbeddedContext c = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10);
    private final List<String> atA = new CopyOnWriteArrayList<>();
    private final List<String> atC = new CopyOnWriteArrayList<>();
    private final Startpoint replyToA = a.context().createEndpoint().register(REPLY, (e, m) -> atA.add(m.getString()))
        .startpoint();
    private final Startpoint replyToC = c.context().createEndpoint().register(REPLY, (e, m) -> atC.add(m.getString()))
        .startpoint();
    private final LogCapture log = new LogCapture("io.polylink.core");
    private EmbeddedContext b;

    @AfterEach
    void close() {
        log.close();
        a.close();
        c.close();
        if (b != null) {
            b.close();
        }
        Await.noThreads("polylink-");
    }

    private Startpoint echoAtB(Map<String, String> config) {
        b = EmbeddedContext.open(config).add(pipeAtB, 10);
        return a.context().startpoint(b.systemStartpoint().toText());
    }

    private void echo(Startpoint echo, Startpoint replyTo, String text) {
        echo.send(0, a.context().allocateBuffer(128).putStartpoint(replyTo).putInt(REPLY).putString(text));
    }

    @Test
    void anEchoWhoseReplyNamesAContextWithoutAConnectionIsRefusedAndDialsNothing() {
        Startpoint echo = echoAtB(Map.of());

        echo(echo, replyToC, "to c");

        Await.until(() -> log.lines().stream().anyMatch(l -> l.startsWith("echo to " + c.context().id() + " refused: "
            + "this context has no connection with it, and would have to dial an address the asker wrote; set "
            + "systemTargets=any in io.polylink.core to send to any startpoint")), Duration.ofSeconds(10),
            () -> "no refusal logged: " + log.lines());
        assertEquals(List.of(), pipeAtB.connectingThreads, "b dialled nobody");
        assertEquals(List.of(), b.links(), "b made no flow");
        assertEquals(1, b.context().statistics().errors());

        echo(echo, replyToA, "to a");
        Await.until(() -> atA.equals(List.of("to a")), Duration.ofSeconds(10),
            () -> "the asker's own echo did not come back: " + atA);
        assertEquals(List.of(), atC);
    }

    @Test
    void aRelayToAContextWithoutAConnectionIsRefusedToo() {
        Startpoint relay = echoAtB(Map.of());
        Startpoint echoAtC = a.context().startpoint(c.systemStartpoint().toText());

        relay.send(1, a.context().allocateBuffer(256).putStartpoint(echoAtC).putInt(0).putStartpoint(replyToA)
            .putInt(REPLY).putString("via b and c"));

        Await.until(() -> log.lines().stream().anyMatch(l -> l.startsWith("relay to " + c.context().id()
            + " refused: ")), Duration.ofSeconds(10), () -> "no refusal logged: " + log.lines());
        assertEquals(List.of(), pipeAtB.connectingThreads, "b dialled nobody");
    }

    @Test
    void configuredToSendAnywhereTheSystemEndpointDialsWhatTheAskerNames() {
        Startpoint echo = echoAtB(Map.of("systemTargets", "any"));

        echo(echo, replyToC, "to c");

        Await.until(() -> atC.equals(List.of("to c")), Duration.ofSeconds(10), () -> "the echo never reached c");
        assertTrue(log.lines().stream().noneMatch(l -> l.contains("refused")), log.lines().toString());
    }
}
