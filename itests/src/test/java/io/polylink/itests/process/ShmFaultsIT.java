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
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nodes in their own JVMs whose shm inboxes are cut short, forged or out of reach: no thread
 * dies on either side, nothing is mapped that another user could cut short, the links move with
 * no RSR duplicated or reordered (RSRs in flight on an inbox as it is cut short may be lost or
 * damaged, and no others), and shm comes back without a restart.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ShmFaultsIT {

    private static final int SINK = 7;
    /** The threads of a node's methods that must outlive any fault of one connection or segment. */
    private static final Set<String> METHOD_THREADS = Set.of("polylink-shm-io", "polylink-shm-timer",
        "polylink-tcp-io");
    /** RSRs a stream keeps in flight at most: sent, and not yet back at its sink. */
    private static final int WINDOW = 2_000;
    /** Longs after a stream RSR's number, drawn from it, so the sink tells an RSR that came back corrupt. */
    private static final int PATTERN_LONGS = 8;
    /** A link's line in {@code polylink:links}, and in the driver's list: its id first, its unacknowledged RSRs last. */
    private static final Pattern LINK = Pattern.compile("^[0-9a-f]{16} .* (\\d+)$");
    /** A node's threads that live as long as it does, once started: the cut may end none of them. */
    private static final Pattern LONG_LIVED = Pattern.compile(
        "polylink-(shm-io|shm-timer|tcp-io|tcp-accept|tcp-timer|control-.+|retry-.+)");

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

    /** @return the node's threads that live as long as it does */
    private static Set<String> longLived(NodeProcess node) throws Exception {
        return node.threads().stream().filter(t -> LONG_LIVED.matcher(t).matches())
            .collect(Collectors.toCollection(TreeSet::new));
    }

    /** Every thread of {@code before} still runs in the node. */
    private static void noneEnded(String name, NodeProcess node, Set<String> before) throws Exception {
        Set<String> now = longLived(node);
        assertTrue(now.containsAll(before), () -> "threads of node " + name + " before the cut: " + before
            + "; after it: " + now);
    }

    /** @return the RSRs sent on the flows of these lines of links and not acknowledged yet, summed */
    private static long unacknowledged(List<String> links) {
        long sum = 0;
        for (String line : links) {
            Matcher link = LINK.matcher(line.trim());
            if (link.matches()) {
                sum += Long.parseLong(link.group(1));
            }
        }
        return sum;
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

    private static Object fileKey(Path file) throws IOException {
        return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
    }

    /**
     * What shm promises when a process of the same user cuts a live inbox short (docs/methods.md,
     * "Faults"), and nothing beyond it. Both sides notice and name the inbox, its owner makes a
     * fresh one, the link moves off shm and comes back, no thread dies and nothing is left behind.
     * RSRs in flight on the link at the cut may be lost, and one read as the pages went may reach
     * its handler damaged, since the JVM returns garbage for a read of a page that is gone and
     * raises the fault only at a later point of the thread: the stream waits until both sides
     * noticed, and then every RSR it lost or got damaged must be one that was in flight at the
     * cut; none is duplicated or reordered. A second stream, once shm is back, loses nothing.
     */
    @Test
    void anInboxCutShortUnderAStreamLosesOnlyRsrsInFlightAtTheCutAndShmComesBackWhole() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        // a relays to b before they have a connection: the system endpoint must send anywhere.
        Installation.set(home, "io.polylink.core.cfg", "systemTargets", "any");
        NodeProcess a = node(home, "a");
        NodeProcess b = node(home, "b");
        Driver driver = driver(home, Map.of("ringBytes", "65536"));
        Context me = driver.context();
        Startpoint relayAtA = driver.lookup("a");
        Startpoint echoAtB = driver.lookup("b");
        ContextId idOfB = echoAtB.targets().get(0).context();
        Path inboxOfB = Installation.shmDirectory(home).resolve(ShmAddress.decode(echoAtB.targets().get(0).table()
            .entries().stream().filter(d -> d.method().equals("shm")).findFirst().orElseThrow().address()).inbox());
        Set<String> threadsOfA = longLived(a);
        Set<String> threadsOfB = longLived(b);
        Supplier<String> diagnosis = () -> diagnosis(driver, a, b);

        long total = 30_000;
        long cutAt = 10_000;
        RelayedStream first = new RelayedStream(me, relayAtA, echoAtB);
        first.sendUpTo(cutAt - WINDOW, diagnosis);
        assertEquals("shm", stackOf(a, idOfB), "a relays to b by shm before the cut");
        Object before = fileKey(inboxOfB);
        first.sendUpTo(cutAt, diagnosis); // the window fills again: the cut comes under a stream
        long inFlightAtCut = first.check.missing(0, cutAt);
        long cutNanos = System.nanoTime();
        try (FileChannel inbox = FileChannel.open(inboxOfB, StandardOpenOption.WRITE)) {
            inbox.truncate(4096); // as truncate -s 4096 does, while a writes into it and b reads it
        }
        Driver.await(() -> b.log().lines().anyMatch(l -> l.contains(": shm inbox " + inboxOfB + " ")
            && l.endsWith("replacing it")), Duration.ofSeconds(10), () -> "b did not replace its inbox" + diagnosis.get());
        long bNoticedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cutNanos);
        Driver.await(() -> a.log().contains(inboxOfB.toString()), Duration.ofSeconds(10),
            () -> "a's log does not name b's inbox" + diagnosis.get());
        long aNoticedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cutNanos);

        // The rest goes once both sides noticed: over what a moved to, then over shm again.
        first.sendUpTo(total, diagnosis);
        first.awaitSettled(driver, a, b, diagnosis);
        long lost = first.check.missing(0, total);
        System.out.println("b's inbox cut short under a stream relayed by a, noticed by b after " + bNoticedMs
            + " ms and by a after " + aNoticedMs + " ms: " + first.check.summary(total) + "; " + first.damaged.get()
            + " of the lost arrived damaged; " + inFlightAtCut + " RSRs were in flight at the cut");
        assertTrue(first.check.duplicated() == 0 && first.check.reordered() == 0,
            () -> first.check.summary(total) + diagnosis.get());
        assertTrue(first.check.missing(cutAt, total) == 0 && lost <= inFlightAtCut && first.damaged.get() <= lost,
            () -> "lost " + lost + " RSRs (" + first.damaged.get() + " arrived damaged), "
                + first.check.missing(cutAt, total) + " of them sent after the cut; only the " + inFlightAtCut
                + " in flight at the cut (the stream's window is " + WINDOW + ") may be lost: "
                + first.check.summary(total) + diagnosis.get());
        assertNotEquals(before, fileKey(inboxOfB), "b made a fresh inbox");

        try {
            Driver.awaitSlowly(() -> "shm".equals(stackOf(a, idOfB)), Duration.ofSeconds(60),
                () -> "a's link to b did not come back to shm");
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + diagnosis.get(), e);
        }
        // The link is whole again: a stream over it loses nothing.
        long again = 10_000;
        RelayedStream second = new RelayedStream(me, relayAtA, echoAtB);
        second.sendUpTo(again, diagnosis);
        second.awaitSettled(driver, a, b, diagnosis);
        System.out.println("a second stream once shm was back: " + second.check.summary(again));
        assertTrue(second.check.perfect(again) && second.damaged.get() == 0, () -> second.check.summary(again)
            + ", damaged " + second.damaged.get() + diagnosis.get());
        assertEquals("shm", stackOf(a, idOfB), "the second stream went by shm");

        // A link made after the fault: b's poller reads its fresh inbox, and answers by shm.
        AtomicLong echoed = new AtomicLong();
        Endpoint late = me.createEndpoint().register(SINK, (e, m) -> echoed.incrementAndGet());
        Startpoint direct = me.startpoint(echoAtB.toText()).pin("shm");
        direct.send(Driver.ECHO, me.allocateBuffer(256).putStartpoint(late.startpoint().pin("shm")).putInt(SINK));
        Driver.await(() -> echoed.get() == 1, Duration.ofSeconds(30), () -> "no echo by shm after the fault");

        noneEnded("a", a, threadsOfA);
        noneEnded("b", b, threadsOfB);
        unharmed(a);
        unharmed(b);
        assertEquals(Stream.of(relayAtA.targets().get(0).context(), idOfB, me.id()).map(SegmentDirectory::inboxName)
            .sorted().toList(), segments(home), "only the nodes' and the driver's inboxes are left");
    }

    /**
     * Numbered RSRs the driver sends to b through a's relay, which b echoes back by tcp to a sink
     * of the driver's: b's inbox is written by a alone, on a's poller. At most {@link #WINDOW} are
     * in flight. The sink counts the intact ones in {@link #check}, the damaged ones apart.
     */
    private static final class RelayedStream {

        final SequenceCheck check = new SequenceCheck();
        final AtomicLong damaged = new AtomicLong();
        private final Startpoint relay;
        private final Startpoint echo;
        private final Startpoint back;
        private final MessageBuffer message;
        private long sent;

        RelayedStream(Context context, Startpoint relay, Startpoint echo) {
            this.relay = relay;
            this.echo = echo;
            Endpoint sink = context.createEndpoint().register(SINK, (e, m) -> accept(m));
            this.back = sink.startpoint().editTable(t -> t.remove("shm"));
            this.message = context.allocateBuffer(256);
        }

        /** An RSR whose pattern does not match its number arrived damaged: it counts as lost, not as its number. */
        private void accept(MessageBuffer m) {
            boolean intact = m.remaining() == (1 + PATTERN_LONGS) * Long.BYTES;
            long seq = intact ? m.getLong() : -1;
            for (int i = 0; intact && i < PATTERN_LONGS; i++) {
                intact = m.getLong() == pattern(seq, i);
            }
            if (intact) {
                check.accept(seq, true);
            } else {
                damaged.incrementAndGet();
            }
        }

        private static long pattern(long seq, int i) {
            return (seq + i) * 0x9E3779B97F4A7C15L;
        }

        /** Sends the RSRs numbered from the last sent up to {@code end} (exclusive), each once the window allows. */
        void sendUpTo(long end, Supplier<String> diagnosis) {
            for (; sent < end; sent++) {
                long seq = sent;
                Driver.awaitWindow(() -> seq - check.delivered() < WINDOW, () -> check.summary(seq) + diagnosis.get());
                message.clear().putStartpoint(echo).putInt(Driver.ECHO).putStartpoint(back).putInt(SINK).putLong(seq);
                for (int i = 0; i < PATTERN_LONGS; i++) {
                    message.putLong(pattern(seq, i));
                }
                relay.send(Driver.RELAY, message);
            }
        }

        /**
         * Waits until every flow of the three contexts has had all it sent acknowledged, and what
         * reached the sink stood still between two looks: each RSR of the stream has been
         * delivered or was lost, and none is on its way.
         */
        void awaitSettled(Driver driver, NodeProcess a, NodeProcess b, Supplier<String> diagnosis) {
            AtomicLong lastLook = new AtomicLong(-1);
            try {
                Driver.awaitSlowly(() -> {
                    long arrived = check.delivered() + damaged.get();
                    boolean unmoved = lastLook.getAndSet(arrived) == arrived;
                    return unacknowledged(driver.embedded().links()) == 0
                        && unacknowledged(a.shell("polylink:links", Duration.ofSeconds(30))) == 0
                        && unacknowledged(b.shell("polylink:links", Duration.ofSeconds(30))) == 0 && unmoved;
                }, Duration.ofMinutes(1), () -> "the stream did not settle: " + check.summary(sent));
            } catch (AssertionError e) {
                // A node that cannot list its links says why in its threads.
                throw new AssertionError(e.getMessage().lines().findFirst().orElse("") + diagnosis.get(), e);
            }
        }
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
