package io.polylink.core.internal.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Handlers that throw are logged a few lines a second for each thing thrown, so one that fails in a
 * loop hides no other failure, and the line that says what was held back names what it was.
 */
class HandlerFailureLogTest {

    private final EmbeddedContext context = EmbeddedContext.open();
    private final LogCapture log = new LogCapture("io.polylink.core");

    @AfterEach
    void close() {
        log.close();
        context.close();
        Await.noThreads("polylink-");
    }

    @Test
    void aHandlerFailingInALoopHidesNoOtherFailureAndWhatItHeldBackIsNamed() {
        Endpoint endpoint = context.context().createEndpoint()
            .register(1, (e, m) -> {
                throw new IllegalStateException("in a loop");
            })
            .register(2, (e, m) -> {
                throw new InternalError("once");
            });
        Startpoint here = endpoint.startpoint();
        MessageBuffer empty = context.context().allocateBuffer(0);

        for (int i = 0; i < 5; i++) {
            here.send(1, empty.clear());
        }
        here.send(2, empty.clear());

        assertTrue(log.lines().contains("handler 2 of " + endpoint + " threw java.lang.InternalError: once"),
            "the other handler's failure was held back: " + log.lines());
        String heldBack = "handler failed: " + IllegalStateException.class.getName() + ": 4 more like it held back";
        Await.until(() -> log.lines().contains(heldBack), Duration.ofSeconds(10),
            () -> "no line says what was held back: " + log.lines());
        assertEquals(6, endpoint.statistics().errors());
    }
}
