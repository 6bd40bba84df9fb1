package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Descriptor;
import io.polylink.Startpoint;
import io.polylink.method.compress.internal.Lz4Transform;
import io.polylink.method.crypto.internal.AeadTransform;
import io.polylink.testkit.EchoStreams;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bundle updates inside a running node, typed into its Gogo shell as an administrator would,
 * while eight senders in this JVM send flat out to the node's system endpoint, which echoes
 * every RSR back: 100 {@code update}s of the tcp bundle, 100 of the shm bundle, and 100
 * {@code uninstall}/{@code install}+{@code start} cycles of the lz4 bundle, and as many of the
 * aead bundle (both ends share a pre-shared key). The node's links
 * (the echoes) move to the other stack and back each time; for tcp and shm, half the senders can
 * only use the method being replaced (see {@link #requests}). Every RSR whose send returned must
 * come back exactly once and in order, per sender; a send refused while the method is away is
 * tried again and not counted as sent.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class BundleUpdatesInNodeIT {

    private static final int SENDERS = 8;
    private static final int CYCLES = 100;
    /** Echoes to wait for after each step, so every state of a cycle carries traffic. */
    private static final int PROGRESS = 100;
    private static final int WINDOW = 256;
    private static final int PAYLOAD = 128;
    private static final Duration STEP_LIMIT = Duration.ofSeconds(30);
    private static final Pattern BUNDLE_ID = Pattern.compile("Bundle ID: (\\d+)");
    private static final String PSK = Base64.getEncoder().encodeToString(
        "bundle updates in a node: 32 byte".getBytes(StandardCharsets.US_ASCII));

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
    void everyEchoComesBackOnceAndInOrderWhileTheNodeUpdatesAndReinstallsItsBundles() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        // A fixed port: the updated tcp method listens where this side's copy of the node's table says.
        Installation.set(home, "io.polylink.method.tcp.cfg", "port", Integer.toString(Installation.freePort()));
        Installation.set(home, "io.polylink.method.crypto.cfg", "psk", PSK);
        // The cycles uninstall lz4 and aead while the echoes' tables name them: installing them
        // back from repo/ is the cycle's own step, not the core's.
        Installation.set(home, "io.polylink.core.cfg", "install.enabled", "false");
        NodeProcess node = NodeProcess.startWithShell(home, "b", "-Xmx256m");
        nodes.add(node);
        driver = new Driver(home, Map.of("directory", Installation.shmDirectory(home).toString()));
        driver.embedded().add(new Lz4Transform(Map.of())).add(AeadTransform.configured(Map.of("psk", PSK)));
        Startpoint atB = driver.lookup("b");
        Path lz4Jar = onlyJar(home.resolve("repo"), "polylink-method-compress-");
        Path aeadJar = onlyJar(home.resolve("repo"), "polylink-method-crypto-");

        List<EchoStreams.Result> results = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        try (EchoStreams streams = new EchoStreams(driver.context(), SENDERS, WINDOW, PAYLOAD)) {
            Cycles cycles = new Cycles(node, streams);
            results.add(cycles.run("tcp", requests(atB, "tcp"),
                streams.sink().copy().editTable(t -> t.prefer("tcp")), i -> {
                    cycles.step("update io.polylink.method.tcp", i);
                    cycles.awaitMethods("tcp", true);
                }));
            results.add(cycles.run("shm", requests(atB, "shm"),
                streams.sink().copy().editTable(t -> t.prefer("shm")), i -> {
                    cycles.step("update io.polylink.method.shm", i);
                    cycles.awaitMethods("shm", true);
                }));
            Descriptor hereTcp = driver.context().descriptorTable().entries().stream()
                .filter(d -> d.stack().equals("tcp")).findFirst().orElseThrow();
            results.add(cycles.reinstalling("lz4", "io.polylink.method.compress", lz4Jar, atB,
                streams.sink().copy().editTable(t -> t.prefer("tcp").insert(0, hereTcp.withStack("lz4/tcp")))));
            results.add(cycles.reinstalling("aead", "io.polylink.method.crypto", aeadJar, atB,
                streams.sink().copy().editTable(t -> t.prefer("tcp").insert(0, hereTcp.withStack("aead/tcp")))));
            notes.addAll(cycles.notes);
        }
        results.forEach(r -> System.out.println("bundle updates in a node: " + r));
        notes.forEach(n -> System.out.println("bundle updates in a node: " + n));
        for (EchoStreams.Result r : results) {
            assertTrue(r.perfect(), r::toString);
            assertEquals(0, r.corrupted(), r::toString);
        }
    }

    /** One phase of traffic and its cycles of shell commands, with the longest stall and the time taken noted. */
    private static final class Cycles {
        final NodeProcess node;
        final EchoStreams streams;
        final List<String> notes = new ArrayList<>();
        String worstStep = "none";
        long worstStall;
        long commandNanos;
        int commands;

        Cycles(NodeProcess node, EchoStreams streams) {
            this.node = node;
            this.streams = streams;
        }

        interface Cycle {
            void run(int index) throws Exception;
        }

        EchoStreams.Result run(String phase, List<Startpoint> requests, Startpoint replies, Cycle cycle) throws Exception {
            long start = System.nanoTime();
            worstStall = 0;
            worstStep = "none";
            commandNanos = 0;
            commands = 0;
            Map<String, Integer> requestStacks = new TreeMap<>();
            streams.begin(phase, requests, replies);
            EchoStreams.Result result;
            try {
                streams.awaitEchoes(PROGRESS, STEP_LIMIT);
                for (int i = 0; i < CYCLES; i++) {
                    requestStacks.merge(streams.requestStack(), 1, Integer::sum);
                    streams.takeRecentStall();
                    cycle.run(i);
                    streams.awaitEchoes(PROGRESS, STEP_LIMIT);
                    long stall = streams.takeRecentStall();
                    if (stall > worstStall) {
                        worstStall = stall;
                        worstStep = "cycle " + (i + 1);
                    }
                }
            } catch (RuntimeException | AssertionError e) {
                throw new AssertionError(phase + ": " + e.getMessage() + "\nthe node's links:\n  "
                    + String.join("\n  ", node.shell("polylink:links", STEP_LIMIT)) + "\nthe node's log ends:\n  "
                    + String.join("\n  ", node.log().lines().skip(Math.max(0, node.log().lines().count() - 30)).toList()), e);
            } finally {
                result = streams.end(STEP_LIMIT);
            }
            notes.add(String.format(Locale.ROOT, "%s: %d cycles in %.1f s; %d shell commands, %.1f ms each on average; "
                + "the fallback senders' requests at the cycles' starts were on %s; longest send stall in %s", phase,
                CYCLES, (System.nanoTime() - start) / 1e9, commands, commandNanos / 1e6 / Math.max(1, commands),
                requestStacks, worstStep));
            return result;
        }

        /**
         * Cycles of uninstalling a transform's bundle from the node and installing it again, while
         * the node's echoes prefer the transform's stack.
         */
        EchoStreams.Result reinstalling(String transform, String bundle, Path jar, Startpoint node, Startpoint replies)
            throws Exception {
            return run(transform, List.of(node.copy().editTable(t -> t.prefer("tcp"))), replies, i -> {
                step("uninstall " + bundle, i);
                awaitMethods(transform, false);
                streams.awaitEchoes(PROGRESS, STEP_LIMIT);
                Matcher id = BUNDLE_ID.matcher(String.join("\n", step("install " + jar.toUri(), i)));
                assertTrue(id.find(), "install printed no bundle id");
                step("start " + id.group(1), i);
                awaitMethods(transform, true);
            });
        }

        /** Runs a shell command on the node; a failure names the cycle. */
        List<String> step(String command, int cycle) {
            long start = System.nanoTime();
            try {
                return node.shell(command, STEP_LIMIT);
            } catch (AssertionError e) {
                throw new AssertionError("cycle " + (cycle + 1) + ": " + e.getMessage() + "; traffic: " + streams.echoes()
                    + " echoes so far", e);
            } finally {
                commandNanos += System.nanoTime() - start;
                commands++;
            }
        }

        /** Waits until the node's context lists (or no longer lists) a method or transform, asking its shell. */
        void awaitMethods(String name, boolean present) {
            long deadline = System.nanoTime() + STEP_LIMIT.toNanos();
            while (true) {
                List<String> methods = node.shell("polylink:methods", STEP_LIMIT);
                boolean listed = methods.stream().anyMatch(l -> l.split("\\s+")[0].equals(name));
                if (listed == present) {
                    return;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("node " + (present ? "never listed " : "still lists ") + name + " within "
                        + STEP_LIMIT + ": " + methods);
                }
            }
        }
    }

    /**
     * Half the senders prefer the method and may fall back to the other; the other half have only
     * the method, so they wait while it is away and their RSRs in flight must be sent again to the
     * new instance: every cycle tears down the node's receiving side under them. A link that fell
     * back because connecting failed returns only after a background connect works, a second or
     * more later, so most cycles start with the first half on the fallback.
     */
    private static List<Startpoint> requests(Startpoint node, String method) {
        return List.of(node.copy().editTable(t -> t.prefer(method)),
            node.copy().editTable(t -> t.filter(d -> d.stack().equals(method))));
    }

    private static Path onlyJar(Path dir, String prefix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> found = files.filter(p -> p.getFileName().toString().startsWith(prefix)
                && p.getFileName().toString().endsWith(".jar")).toList();
            assertEquals(1, found.size(), "one " + prefix + "*.jar in " + dir + ": " + found);
            return found.get(0);
        }
    }
}
