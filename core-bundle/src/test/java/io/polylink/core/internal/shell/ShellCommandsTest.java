package io.polylink.core.internal.shell;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.Internals;
import io.polylink.core.internal.PipeMethod;
import io.polylink.testkit.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ShellCommandsTest {

    private final PipeMethod.Network network = new PipeMethod.Network();
    private final EmbeddedContext a = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10);
    private final EmbeddedContext b = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10);
    private final ShellCommands shell = new ShellCommands(a.context(), Internals.installed(a), Internals.flows(a),
        Internals.channels(a));

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
        assertTrue(result.startsWith("20 round trips of 32 B to polylink:") && result.contains(" via pipe: min "),
            result);
        String stats = shell.stats();
        String bytes = "\\d+(\\.\\d+)? (B|KiB)";
        assertTrue(stats.lines().anyMatch(l -> l.matches("context\\s+20\\s+" + bytes + "\\s+20\\s+" + bytes
            + "\\s+0\\s+0 B")), stats);
        assertTrue(stats.lines().anyMatch(l -> l.matches("\\s+\\d+\\s+" + bytes + "\\s+\\d+\\s+" + bytes
            + "\\s+0\\s+0 B pipe .*" + b.context().id() + ".*")), "no row for the connection to b:\n" + stats);
        assertThrows(IllegalArgumentException.class, () -> shell.ping(b.systemStartpoint().toText(), 1, 0));
    }

    @Test
    void linksListEachFlowAndExplainSaysWhyItIsOnItsStack() {
        shell.ping(b.systemStartpoint().toText(), 8, 3);
        String links = shell.links();
        String[] lines = links.split("\n");
        assertTrue(lines[0].matches("LINK\\s+PEER\\s+STACK\\s+RTT p50\\s+RTT p99\\s+SENT\\s+UNACKED"), links);
        assertTrue(lines.length == 2 && lines[1].matches("[0-9a-f]{16} " + b.context().id()
            + "\\s+pipe\\s+(-|\\S+ \\S+)\\s+(-|\\S+ \\S+)\\s+3\\s+\\d+"), links);
        String explained = shell.explain(lines[1].substring(0, 6));
        assertTrue(explained.matches("(?s)flow [0-9a-f]+ to " + b.context().id()
            + "\n  1\\. local refused \\(other context\\)\n  2\\. pipe chosen \\(pipe in this JVM\\)"), explained);
        assertTrue(shell.explain("zz").startsWith("no link with an id starting 'zz'"), shell.explain("zz"));
    }
}
