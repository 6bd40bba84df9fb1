package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.polylink.Context;
import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.DescriptorTable;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.method.shm.internal.connect.ShmAddress;
import io.polylink.method.shm.internal.segment.SegmentDirectory;
import io.polylink.testkit.EchoStreams;
import io.polylink.testkit.SequenceCheck;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nodes in their own JVMs whose shm inboxes are cut short, forged or out of reach: no thread
 * dies on either side, nothing is mapped that another user could cut short, the links move with
 * no RSR lost, duplicated or reordered, and shm comes back without a restart.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ShmFaultsIT {

    private static final int SINK = 7;
    /** The threads of a node's methods that must outlive any fault of one connection or segment. */
    private static final Set<String> METHOD_THREADS = Set.of("polylink-shm-io", "polylink-shm-timer",
        "polylink-tcp-io");
    /** A handler the fault's InternalError landed in, and how many more like it the core held back. */
    private static final Pattern FAULT_IN_HANDLER = Pattern.compile("io\\.polylink\\.core: handler \\d+ of .* threw "
        + "java\\.lang\\.InternalError: a fault occurred in .*?(?: \\((\\d+) more like it held back\\))?$");
    /** The core's line for handlers that threw InternalErrors it held back. */
    private static final Pattern FAULTS_HELD_BACK = Pattern.compile("io\\.polylink\\.core: handler failed: "
        + "java\\.lang\\.InternalError: (\\d+) more like it held back$");

    @TempDir
    Path temp;

    private final List<EchoStreams> streams = new ArrayList<>();
    private final List<Driver> drivers = new ArrayList<>();
    private final List<NodeProcess> nodes = new ArrayList<>();

    @AfterEach
    void cleanUp() throws InterruptedException {
        for (EchoStreams s : streams) {
            s.close();
        }
        drivers.forEach(Driver::close);
        NodeProcess.closeAll(nodes);
    }

    private NodeProcess node(Path home, String name) throws Exception {
        NodeProcess n = NodeProcess.startWithShell(home, name, "-Xmx256m");
        nodes.add(n);
        return n;
    }

    private Driver driver(Path home, Map<String, Object> shm) {
        Driver d = new Driver(home, shm);
        drivers.add(d);
        return d;
    }

    /** The node's method threads run, and none of its threads ended with an uncaught throwable. */
    private static void unharmed(NodeProcess node) throws Exception {
        Set<String> threads = node.threads();
        assertTrue(threads.containsAll(METHOD_THREADS), "threads of the node: " + threads);
        assertTrue(node.log().lines().noneMatch(l -> l.startsWith("Exception in thread")), node.log());
    }

    /**
     * @return how many handlers the JVM's error from a fault on a mapping landed in, as the nodes'
     *     logs say: the lines that name it, and the lines of its kind the core held back
     */
    private static long handlerFaults(NodeProcess... nodes) {
        return Stream.of(nodes).flatMap(n -> n.log().lines()).mapToLong(ShmFaultsIT::handlerFaults).sum();
    }

    private static long handlerFaults(String line) {
        Matcher named = FAULT_IN_HANDLER.matcher(line);
        if (named.find()) {
            return 1 + (named.group(1) == null ? 0 : Long.parseLong(named.group(1)));
        }
        Matcher heldBack = FAULTS_HELD_BACK.matcher(line);
        return heldBack.find() ? Long.parseLong(heldBack.group(1)) : 0;
    }

    /** @return what a failing test says of the driver's links and of each node */
    private static String diagnosis(Driver driver, NodeProcess... nodes) {
        StringBuilder out = new StringBuilder("\n=== driver's links ===\n")
            .append(String.join("\n", driver.embedded().links()));
        for (NodeProcess n : nodes) {
            out.append(n.diagnosis());
        }
        return out.toString();
    }

    /** @return the stack node {@code node}'s link to {@code peer} travels on now, from polylink:links */
    private static String stackOf(NodeProcess node, ContextId peer) {
        return node.shell("polylink:links", Duration.ofSeconds(30)).stream()
            .filter(l -> l.contains(peer.toString())).map(l -> l.trim().split("\\s+")[2]).findFirst()
            .orElse("(no link)");
    }

    private static String chosen(Startpoint s) {
        return s.explain().get(0).chosen().orElseThrow().descriptor().stack();
    }

    private static Object fileKey(Path file) throws IOException {
        return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
    }

    @Test
    void anInboxCutShortUnderAStreamEndsOnBothSidesLosesNoFrameAndShmComesBack() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        // a relays to b before they have a connection: the system endpoint must send anywhere.
        Installation.set(home, "io.polylink.core.cfg", "systemTargets", "any");
        NodeProcess a = node(home, "a");
        NodeProcess b = node(home, "b");
        Driver driver = driver(home, Map.of("ringBytes", "65536"));
        Context me = driver.context();
        SequenceCheck check = new SequenceCheck();
        Endpoint sink = me.createEndpoint().register(SINK, (e, m) -> check.accept(m.getLong(), true));
        Startpoint relayAtA = driver.lookup("a");
        Startpoint echoAtB = driver.lookup("b");
        ContextId idOfB = echoAtB.targets().get(0).context();
        // Echoes come back by tcp: b's inbox is written by a alone, on a's shm poller, which relays.
        Startpoint back = sink.startpoint().editTable(t -> t.remove("shm"));
        MessageBuffer message = me.allocateBuffer(256);
        Path inboxOfB = Installation.shmDirectory(home).resolve(ShmAddress.decode(echoAtB.targets().get(0).table()
            .entries().stream().filter(d -> d.method().equals("shm")).findFirst().orElseThrow().address()).inbox());

        long total = 30_000;
        long cutAt = 10_000;
        Object before = null;
        for (long seq = 0; seq < total; seq++) {
            long inFlight = seq;
            Driver.awaitWindow(() -> inFlight - check.delivered() < 2_000,
                () -> check.summary(inFlight) + diagnosis(driver, a, b));
            relayAtA.send(Driver.RELAY, message.clear().putStartpoint(echoAtB).putInt(Driver.ECHO)
                .putStartpoint(back).putInt(SINK).putLong(seq));
            if (seq == cutAt) {
                assertEquals("shm", stackOf(a, idOfB), "a relays to b by shm before the cut");
                before = fileKey(inboxOfB);
                try (FileChannel inbox = FileChannel.open(inboxOfB, StandardOpenOption.WRITE)) {
                    inbox.truncate(4096); // as truncate -s 4096 does, while a writes into it
                }
            }
        }
        // HotSpot raises a fault on a mapping as an InternalError at some later point of the thread
        // that met it: where that is an inline handler on a's or b's poller, the core counts it as
        // that handler's failure, and its RSR goes no further. Every other RSR arrives once, in order.
        Driver.await(() -> check.delivered() + handlerFaults(a, b) >= total, Duration.ofMinutes(2),
            () -> check.summary(total) + "; handlers that met the fault's InternalError: " + handlerFaults(a, b)
                + diagnosis(driver, a, b));
        long faults = handlerFaults(a, b);
        long lost = total - (check.delivered() - check.duplicated());
        System.out.println("b's inbox cut short under a stream relayed by a: " + check.summary(total) + "; handlers "
            + "that met the fault's InternalError: " + faults);
        assertTrue(check.duplicated() == 0 && check.reordered() == 0 && lost <= faults,
            () -> check.summary(total) + "; handlers that met the fault: " + faults + diagnosis(driver, a, b));

        String cut = "shm inbox " + inboxOfB + " was cut short to 4096 bytes while mapped";
        Driver.await(() -> b.log().contains(cut), Duration.ofSeconds(10), b::log);
        assertNotEquals(before, fileKey(inboxOfB), "b made a fresh inbox");
        try {
            Driver.awaitSlowly(() -> "shm".equals(stackOf(a, idOfB)), Duration.ofSeconds(60),
                () -> "a's link to b did not come back to shm");
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + diagnosis(driver, a, b), e);
        }
        unharmed(a);
        unharmed(b);

        // A link made after the fault: b's poller reads its fresh inbox, and answers by shm.
        AtomicLong echoed = new AtomicLong();
        Endpoint late = me.createEndpoint().register(SINK, (e, m) -> echoed.incrementAndGet());
        Startpoint direct = me.startpoint(echoAtB.toText()).pin("shm");
        direct.send(Driver.ECHO, message.clear().putStartpoint(late.startpoint().pin("shm")).putInt(SINK));
        Driver.await(() -> echoed.get() == 1, Duration.ofSeconds(30), () -> "no echo by shm after the fault");
        assertEquals(Stream.of(relayAtA.targets().get(0).context(), idOfB, me.id()).map(SegmentDirectory::inboxName)
            .sorted().toList(), segments(home), "only the nodes' and the driver's inboxes are left");
    }

    @Test
    void aReplyStartpointNamingAnInboxInAFolderNotTrustedIsRefusedNeverMappedAndTcpGoesOn() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        NodeProcess b = node(home, "b");
        Driver driver = driver(home, Map.of()); // tcp alone, as from another host
        Context me = driver.context();
        AtomicLong echoed = new AtomicLong();
        Endpoint sink = me.createEndpoint().register(SINK, (e, m) -> echoed.incrementAndGet());
        Startpoint echoAtB = driver.lookup("b");
        byte[] shmOfB = echoAtB.targets().get(0).table().entries().stream().filter(d -> d.method().equals("shm"))
            .findFirst().orElseThrow().address();

        // A valid-looking inbox in a folder of the attacker's, claiming to be the driver's own.
        Path folder = temp.resolve("attacker");
        Path forged = ForgedInbox.write(folder, me.id());
        byte[] lure = new ShmAddress(ShmAddress.decode(shmOfB).host(), folder, forged.getFileName().toString())
            .encode();
        Startpoint poisoned = sink.startpoint().editTable(t -> DescriptorTable.of(List.of(new Descriptor("shm", lure))));
        MessageBuffer message = me.allocateBuffer(256);

        echoAtB.send(Driver.ECHO, message.clear().putStartpoint(poisoned).putInt(SINK));
        String refused = "shm refused (segment directory " + folder + " is not one this context trusts (its own is "
            + Installation.shmDirectory(home) + "; add the other to trustedDirectories to map inboxes there))";
        Driver.await(() -> b.log().contains(refused), Duration.ofSeconds(30), b::log);
        assertEquals(List.of(), mappingsOf(b, folder), "b mapped the forged inbox");

        // Cut short, the forged file would fault whoever wrote into it: the thread that runs the echo.
        try (FileChannel file = FileChannel.open(forged, StandardOpenOption.WRITE)) {
            file.truncate(4096);
        }
        echoAtB.send(Driver.ECHO, message.clear().putStartpoint(poisoned).putInt(SINK));
        echoAtB.send(Driver.ECHO, message.clear().putStartpoint(sink.startpoint()).putInt(SINK));
        Driver.await(() -> echoed.get() == 1, Duration.ofSeconds(30), () -> "the healthy echo did not come back");
        assertEquals(List.of(), mappingsOf(b, folder), "b mapped the forged inbox");
        unharmed(b);
        assertEquals(List.of(SegmentDirectory.inboxName(echoAtB.targets().get(0).context())), segments(home),
            "files in b's segment directory");
    }

    @Test
    void aNodeOutOfFileDescriptorsKeepsItsShmPeersAndAnswersNewOnesOnceItHasDescriptorsAgain() throws Exception {
        Path prlimit = Path.of("/usr/bin/prlimit");
        assumeTrue(Files.isExecutable(prlimit), "prlimit (util-linux) sets a running process's descriptor limit");
        Path home = Installation.copy(temp.resolve("home"));
        NodeProcess b = NodeProcess.start(home, "b", "-Xmx256m");
        nodes.add(b);
        Map<String, Object> shm = Map.of("directory", Installation.shmDirectory(home).toString());
        EchoStreams early = echoes(driver(home, shm), "b");
        early.awaitEchoes(1000, Duration.ofSeconds(30));
        assertEquals("shm", early.requestStack());

        String pid = Long.toString(b.pid());
        String limit = run(prlimit.toString(), "--pid", pid, "--nofile", "--output=SOFT", "--noheadings").trim();
        long open;
        try (Stream<Path> fds = Files.list(Path.of("/proc", pid, "fd"))) {
            open = fds.count();
        }
        Driver late = driver(home, shm);
        run(prlimit.toString(), "--pid", pid, "--nofile=" + open + ":");
        EchoStreams refused;
        try {
            // Reading /proc takes a descriptor b no longer has: early's process must not look gone to it.
            early.awaitEchoes(5000, Duration.ofSeconds(60));
            assertEquals("shm", early.requestStack());
            // b cannot map late's inbox to answer it: late's shm connection is refused, not left unread.
            refused = echoes(late, "b");
            Driver.await(() -> b.log().contains("shm: cannot answer context " + late.context().id()),
                Duration.ofSeconds(30), b::log);
        } finally {
            run(prlimit.toString(), "--pid", pid, "--nofile=" + limit + ":");
        }
        Driver.await(() -> "shm".equals(refused.requestStack()), Duration.ofSeconds(90),
            () -> "late's link to b did not come back to shm: " + refused.explainRequests());
        refused.awaitEchoes(1000, Duration.ofSeconds(60));
        early.awaitEchoes(1000, Duration.ofSeconds(60));
        for (EchoStreams s : List.of(early, refused)) {
            EchoStreams.Result result = s.end(Duration.ofSeconds(60));
            System.out.println("b out of file descriptors, " + result);
            assertTrue(result.perfect(), result.toString());
        }
        assertTrue(b.log().lines().noneMatch(l -> l.contains("is gone")), b.log());
        assertTrue(b.log().lines().noneMatch(l -> l.startsWith("Exception in thread")), b.log());
    }

    /** @return a stream of echo requests from {@code driver} to node {@code node}, under way */
    private EchoStreams echoes(Driver driver, String node) {
        EchoStreams s = new EchoStreams(driver.context(), 1, 500, 16);
        streams.add(s);
        s.begin(node, driver.lookup(node), s.sink());
        return s;
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    /** @return the lines of the node's memory map naming a file under {@code folder} */
    private static List<String> mappingsOf(NodeProcess node, Path folder) throws IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(node.pid()), "maps")).stream()
            .filter(l -> l.contains(folder.toString())).toList();
    }

    private static List<String> segments(Path home) throws IOException {
        try (Stream<Path> files = Files.list(Installation.shmDirectory(home))) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
