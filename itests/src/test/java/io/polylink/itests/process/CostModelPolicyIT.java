package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.plogp.LinkModel;
import io.polylink.plogp.ModelDatabase;
import io.polylink.plogp.SizeParameters;
import io.polylink.spi.PeerLocation;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cost-model policy as an operator turns it on: the installation's bundle, idle until
 * {@code conf/io.polylink.policy.plogp.cfg} names a model database, then choosing each size's
 * stack for a node's links, which its shell shows and explains.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class CostModelPolicyIT {

    private static final Duration COMMAND = Duration.ofSeconds(60);

    @TempDir
    Path temp;

    private final List<NodeProcess> nodes = new ArrayList<>();

    @AfterEach
    void stopNodes() {
        NodeProcess.closeAll(nodes);
    }

    /** A same-host model of {@code stack}: latency {@code l} µs, gap {@code fixed + perByte × m} µs. */
    private static LinkModel model(String stack, double l, double fixed, double perByte) {
        List<SizeParameters> sizes = new ArrayList<>();
        for (long m = 1; m <= 4 << 20; m *= 4) {
            double g = fixed + perByte * m;
            sizes.add(new SizeParameters(m, g / 2, g / 2, g, 2 * (l + g)));
        }
        return new LinkModel(PeerLocation.SAME_HOST, stack, l, sizes, Instant.now(), "this host");
    }

    @Test
    void aConfiguredModelFileSendsSmallRsrsByTcpAndLargeOnesByLz4AndTheShellSaysSo() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        Installation.set(home, "io.polylink.core.cfg", "table", "tcp,lz4/tcp");
        Path models = home.resolve("conf/plogp.models");
        // tcp 22 + 0.5 m µs, lz4/tcp 520 + 0.01 m: lz4/tcp is 5% faster from 1071 B
        ModelDatabase.of(List.of(model("tcp", 20, 2, 0.5), model("lz4/tcp", 20, 500, 0.01))).write(models);
        Installation.set(home, "io.polylink.policy.plogp.cfg", "models", models.toString());
        Installation.set(home, "io.polylink.policy.plogp.cfg", "enabled", "true");
        nodes.add(NodeProcess.start(home, "beta", "-Xmx256m"));
        NodeProcess alpha = NodeProcess.startWithShell(home, "alpha", "-Xmx256m");
        nodes.add(alpha);

        List<String> stream = alpha.shell("polylink:stream beta 5000", COMMAND);
        assertTrue(stream.contains("stream result: sent=5000 delivered=5000 lost=0 duplicated=0 reordered=0 "
            + "failed-sends=0"), () -> String.join("\n", stream));
        String ping = String.join("\n", alpha.shell("polylink:ping beta 65536 20", COMMAND));
        assertTrue(ping.startsWith("20 round trips of 64.0 KiB to beta via "), ping);

        List<String> links = alpha.shell("polylink:links", COMMAND);
        String bySize = links.stream().filter(l -> l.endsWith("by size: tcp below 1071 B, lz4/tcp from 1071 B"))
            .findFirst().orElseThrow(() -> new AssertionError("no link chooses by size:\n" + String.join("\n", links)));
        String explained = String.join("\n", alpha.shell("polylink:explain " + bySize.substring(0, 16), COMMAND));
        assertTrue(explained.contains("3. lz4/tcp chosen (fastest by its P-LogP model for 0 B and more")
            && explained.contains("by size: tcp below 1071 B, lz4/tcp from 1071 B"), explained);
    }
}
