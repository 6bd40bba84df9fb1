package io.polylink.core.internal;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.testkit.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ShellCommandsTest {

    private final PipeMethod.Network network = new PipeMethod.Network();
    private final EmbeddedContext a = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10);
    private final EmbeddedContext b = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10);
    private final ShellCommands shell = new ShellCommands(a.context());

    @AfterEach
    void close() {
        a.close();
        b.close();
        Await.noThreads("polylink-");
    }

    @Test
    void tableAndMethodsListWhatTheContextOffers() {
        String table = shell.table();
        assertTrue(table.matches("(?s)context " + a.context().id() + "\n#\\s+STACK\\s+ADDRESS\n"
            + "1\\s+local\\s+this context\n2\\s+pipe\\s+pipe:\\d+\n"), table);
        assertTrue(shell.methods().contains("pipe         method     pipe:"), shell.methods());
    }

    @Test
    void pingMakesRoundTripsToASystemEndpointAndStatsCountThem() {
        String result = shell.ping(b.systemStartpoint().toText(), 32, 20);
        assertTrue(result.startsWith("20 round trips of 32 bytes via pipe: min "), result);
        String stats = shell.stats();
        assertTrue(stats.lines().anyMatch(l -> l.matches("context\\s+20\\s+\\d+\\s+20\\s+\\d+\\s+0")), stats);
        assertThrows(IllegalArgumentException.class, () -> shell.ping(b.systemStartpoint().toText(), 1, 0));
    }
}
