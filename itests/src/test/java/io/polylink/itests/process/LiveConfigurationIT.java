package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.Endpoint;
import io.polylink.LinkException;
import io.polylink.NoApplicableMethodException;
import io.polylink.Startpoint;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A running node's {@code conf/} edited as an operator would: its context, its id and its tcp
 * port stay, and a startpoint a peer took before goes on working, whatever key changes, except
 * tcp's {@code port}; a value that cannot be used is refused in one line of the node's log; and a
 * named node comes back with the same id after its process restarts.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LiveConfigurationIT {

    private static final int SINK = 7;
    private static final Duration LIMIT = Duration.ofSeconds(30);

    @TempDir
    Path temp;

    private final List<NodeProcess> nodes = new ArrayList<>();
    private Driver driver;

    @AfterEach
    void cleanUp() {
        if (driver != null) {
            driver.close();
        }
        NodeProcess.closeAll(nodes);
    }

    @Test
    void editedConfFilesApplyWithTheContextItsIdItsPortAndPeersStartpointsKept() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        NodeProcess alpha = node(home);
        driver = new Driver(home);
        AtomicLong echoed = new AtomicLong();
        Endpoint sink = driver.context().createEndpoint().register(SINK, (e, m) -> echoed.incrementAndGet());
        Startpoint taken = driver.lookup("alpha").pin("tcp");
        ContextId id = taken.targets().get(0).context();
        String address = tcpAddress(taken);
        echo(taken, sink, echoed, "before any change");

        Installation.set(home, "io.polylink.method.tcp.cfg", "heartbeatIntervalMs", "200");
        awaitLog(alpha, "method tcp restarts in context " + id);
        echo(taken, sink, echoed, "after tcp's heartbeatIntervalMs changed");
        assertEquals(address, tcpAddress(driver.lookup("alpha")), "tcp listens where it did");

        Installation.set(home, "io.polylink.core.cfg", "quietAckMs", "500");
        awaitLog(alpha, "quietAckMs of io.polylink.core applies in place; context " + id + " keeps its links");
        echo(taken, sink, echoed, "after the core's quietAckMs changed");

        Installation.set(home, "io.polylink.core.cfg", "maxMessageSize", "1048576");
        awaitLog(alpha, "maxMessageSize of io.polylink.core changed, which only a new context runtime applies: it "
            + "starts again as context " + id + " (id kept)");
        echo(taken, sink, echoed, "after the core's runtime restarted");
        assertEquals(address, tcpAddress(driver.lookup("alpha")), "tcp listens where it did after the restart");

        Installation.set(home, "io.polylink.core.cfg", "quietAckMs", "soon");
        awaitLog(alpha, "io.polylink.core: quietAckMs='soon' is not a 64-bit integer; refused, quietAckMs stays '500'");
        echo(taken, sink, echoed, "after a refused value");

        int port = Installation.freePort();
        Installation.set(home, "io.polylink.method.tcp.cfg", "port", Integer.toString(port));
        Driver.await(() -> tcpAddress(driver.lookup("alpha")).endsWith(":" + port), LIMIT,
            () -> "tcp did not move to port " + port + ": " + tcpAddress(driver.lookup("alpha")));
        echo(driver.lookup("alpha").pin("tcp"), sink, echoed, "at the new port");

        assertEquals(1, count(alpha, "is not a 64-bit integer"), () -> "one line per refused value:\n" + alpha.log());
        assertEquals(id, driver.lookup("alpha").targets().get(0).context(), "the id never changed");
    }

    @Test
    void aNamedNodeHasTheSameIdAfterItsProcessRestartsAndAnotherNameAnother() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        NodeProcess first = node(home);
        driver = new Driver(home);
        ContextId id = driver.lookup("alpha").targets().get(0).context();
        first.stop();

        node(home);
        Driver.await(() -> driver.context().lookup("alpha").isPresent(), LIMIT, () -> "alpha never published again");
        assertEquals(id, driver.lookup("alpha").targets().get(0).context());
        Startpoint beta = nodeNamed(home, "beta");
        assertNotEquals(id, beta.targets().get(0).context());
    }

    private NodeProcess node(Path home) throws IOException {
        NodeProcess n = NodeProcess.start(home, "alpha", "-Xmx256m");
        nodes.add(n);
        return n;
    }

    private Startpoint nodeNamed(Path home, String name) throws IOException {
        nodes.add(NodeProcess.start(home, name, "-Xmx256m"));
        return driver.lookup(name);
    }

    /** One echo round trip through {@code target}, retried while its link moves. */
    private void echo(Startpoint target, Endpoint sink, AtomicLong echoed, String when) {
        long before = echoed.get();
        StringBuilder refusals = new StringBuilder();
        Driver.await(() -> {
            try {
                target.send(Driver.ECHO, driver.context().allocateBuffer(64).putStartpoint(sink.startpoint())
                    .putInt(SINK));
            } catch (LinkException | NoApplicableMethodException e) {
                refusals.setLength(0);
                refusals.append(e.getMessage());
                return false;
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            while (echoed.get() == before && System.nanoTime() - deadline < 0) {
                Thread.onSpinWait();
            }
            return echoed.get() > before;
        }, LIMIT, () -> "no echo " + when + "; last refusal: " + refusals);
    }

    /** @return the tcp address in a startpoint's table, as tcp describes it: host:port, … */
    private String tcpAddress(Startpoint s) {
        Descriptor tcp = s.targets().get(0).table().entries().stream().filter(d -> d.stack().equals("tcp"))
            .findFirst().orElseThrow(() -> new AssertionError("no tcp in " + s.targets().get(0).table()));
        return driver.embedded().method("tcp").describe(tcp.address());
    }

    private static void awaitLog(NodeProcess node, String line) {
        Driver.await(() -> nodeLog(node).contains(line), LIMIT, () -> "the node did not log '" + line + "':\n"
            + node.log());
    }

    private static long count(NodeProcess node, String word) {
        return nodeLog(node).lines().filter(l -> l.contains(word)).count();
    }

    private static String nodeLog(NodeProcess node) {
        try {
            return Files.readString(node.nodeLog(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
