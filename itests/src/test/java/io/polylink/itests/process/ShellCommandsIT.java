package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code polylink:*} commands as an operator types them into a node's Gogo shell, against
 * another node by its name: Gogo's {@code help} describes each command and its parameters, ping
 * and a numbered stream reach the other node by name, links and stats show round trips and
 * bytes with their units, and the same statistics are MBeans that a JMX client such as
 * jconsole reads from outside the node's JVM.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ShellCommandsIT {

    private static final Duration COMMAND = Duration.ofSeconds(60);
    private static final List<String> COMMANDS = List.of("methods", "table", "links", "explain", "stats", "ping",
        "stream", "tally", "install");
    private static final Pattern DURATION = Pattern.compile("\\d+(\\.\\d+)? (ns|us|ms|s)");

    @TempDir
    Path temp;

    private final List<NodeProcess> nodes = new ArrayList<>();

    @AfterEach
    void stopNodes() {
        NodeProcess.closeAll(nodes);
    }

    @Test
    void everyCommandHasHelpReachesANodeByNameAndShowsUnitsAndTheStatisticsAreMBeans() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        nodes.add(NodeProcess.start(home, "beta", "-Xmx256m"));
        NodeProcess alpha = NodeProcess.startWithShell(home, "alpha", "-Xmx256m");
        nodes.add(alpha);

        for (String command : COMMANDS) {
            String help = String.join("\n", alpha.shell("help polylink:" + command, COMMAND));
            assertTrue(help.lines().anyMatch(l -> l.startsWith(command + " - ")) && help.contains("scope: polylink"),
                () -> "help polylink:" + command + " says:\n" + help);
        }
        String pingHelp = String.join("\n", alpha.shell("help polylink:ping", COMMAND));
        assertTrue(pingHelp.contains("round trips of a given size") && pingHelp.contains("payload bytes of each round trip")
            && pingHelp.contains("a name a context is published under"), pingHelp);
        String tallyHelp = String.join("\n", alpha.shell("help polylink:tally", COMMAND));
        assertTrue(tallyHelp.contains("--stop") && tallyHelp.contains("end the stream and tally it"), tallyHelp);

        String ping = String.join("\n", alpha.shell("polylink:ping beta 1024 20", COMMAND));
        assertTrue(ping.startsWith("20 round trips of 1.00 KiB to beta via ") && DURATION.matcher(ping).find(), ping);

        List<String> stream = alpha.shell("polylink:stream beta 20000", COMMAND);
        assertTrue(stream.contains("stream result: sent=20000 delivered=20000 lost=0 duplicated=0 reordered=0 "
            + "failed-sends=0"), () -> String.join("\n", stream));

        List<String> links = alpha.shell("polylink:links", COMMAND);
        assertTrue(links.get(0).matches("LINK +PEER +STACK +RTT p50 +RTT p99 +SENT +UNACKED"), links.get(0));
        assertTrue(links.stream().skip(1).anyMatch(l -> DURATION.matcher(l).find()),
            () -> "no link with round trips:\n" + String.join("\n", links));
        List<String> stats = alpha.shell("polylink:stats", COMMAND);
        assertTrue(stats.stream().anyMatch(l -> l.startsWith("context ") && l.contains(" KiB")),
            () -> String.join("\n", stats));
        assertTrue(stats.stream().anyMatch(l -> l.matches("round trips \\(\\d+ links?\\): p50 .+, p99 .+ over \\d+ "
            + "round trips")), () -> String.join("\n", stats));

        try (RemoteJvm jvm = RemoteJvm.attach(alpha.pid())) {
            MBeanServerConnection beans = jvm.beans();
            Set<ObjectName> contexts = beans.queryNames(new ObjectName("io.polylink:type=Context,*"), null);
            assertEquals(1, contexts.size(), contexts::toString);
            ObjectName context = contexts.iterator().next();
            assertEquals("alpha", beans.getAttribute(context, "Name"));
            assertTrue((Long) beans.getAttribute(context, "MessagesSent") >= 20_020L);
            assertTrue((Long) beans.getAttribute(context, "BytesSent") > 20 * 1024L);
            assertTrue((Long) beans.getAttribute(context, "RoundTrips") > 0);
            Set<ObjectName> linkBeans = beans.queryNames(new ObjectName("io.polylink:type=Link,context="
                + context.getKeyProperty("context") + ",*"), null);
            assertFalse(linkBeans.isEmpty(), "no link MBeans");
            assertTrue(linkBeans.stream().anyMatch(l -> attribute(beans, l, "RoundTripP99Micros") > 0),
                () -> "no link MBean with round trips: " + linkBeans);
        }
    }

    private static double attribute(MBeanServerConnection beans, ObjectName name, String attribute) {
        try {
            return ((Number) beans.getAttribute(name, attribute)).doubleValue();
        } catch (Exception e) {
            throw new AssertionError(name + " " + attribute + ": " + e, e);
        }
    }
}
