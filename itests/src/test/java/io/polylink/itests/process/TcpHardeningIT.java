package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.ContextId;
import io.polylink.PolylinkException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node under attack over tcp, as docs/security.md describes it, in a JVM of its own: peers
 * that pin memory with stalled frames, a process out of file descriptors, strangers claiming a
 * connected peer's id with and without the node's key. Each attack gets its documented answer
 * and log line, the node serves a healthy link meanwhile and after, and nothing is left behind.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TcpHardeningIT {

    private static final int LARGE_FRAME = 8 << 20;

    @TempDir
    Path temp;

    private final List<NodeProcess> nodes = new ArrayList<>();
    private final List<Driver> drivers = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();

    @AfterEach
    void cleanUp() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        drivers.forEach(Driver::close);
        NodeProcess.closeAll(nodes);
    }

    private Driver driver(Path home, Map<String, Object> tcp) {
        Driver d = new Driver(home, Map.of(), tcp);
        drivers.add(d);
        return d;
    }

    /**
     * Forty peers each announce an 8 MiB frame, send 70 KiB of it and stall; forty more send 2 MiB
     * each, 80 MiB together, past the 64 MiB budget for large frames. A node with 96 MiB of direct
     * memory holds what the first sent, refuses the frames beyond its budget, and serves a healthy
     * link throughout; once the peers are gone its direct memory and threads are as before.
     */
    @Test
    void aNodeWith96MiBOfDirectMemorySurvivesStalledLargeFramesAndServesAHealthyLink() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        // Long enough that every stalled peer is still connected when the last has stalled.
        Installation.set(home, "io.polylink.method.tcp.cfg", "failureTimeoutMs", "30000");
        NodeProcess b = NodeProcess.start(home, "b", "-Xmx256m -XX:MaxDirectMemorySize=96m");
        nodes.add(b);
        EchoLink echoes = new EchoLink(driver(home, Map.of()), "b");
        echoes.roundTrips(10, "before the attack");
        try (RemoteJvm jvm = RemoteJvm.attach(b.pid())) {
            long directBefore = jvm.directMemoryAfterGc();
            List<String> threadsBefore = jvm.threads("polylink-tcp-");
            for (int i = 0; i < 40; i++) {
                startLargeFrame(echoes, 70 * 1024);
            }
            echoes.roundTrips(100, "while 40 peers stall 8 MiB frames after 70 KiB");
            for (int i = 0; i < 40; i++) {
                startLargeFrame(echoes, 2 << 20);
            }
            echoes.roundTrips(100, "after 80 MiB of large frames against a 64 MiB budget");
            // The node reads what the peers wrote into their sockets while the echoes go: the refusals come meanwhile.
            Driver.await(() -> b.log().lines().anyMatch(l -> l.matches(".*closed: a frame of 8388608 bytes was refused: "
                + "the connections hold \\d+ of the 67108864 bytes budgeted for large frames still arriving "
                + "\\(largeFrameBudget\\), and its buffer needs \\d+ more")), Duration.ofSeconds(30),
                () -> "no line names a refused frame:\n" + b.log());
            assertFalse(b.log().contains("OutOfMemoryError"), b.log());
            for (Socket s : sockets) {
                s.close();
            }
            Driver.await(() -> directMemory(jvm) <= directBefore + (1 << 20), Duration.ofSeconds(30),
                () -> "the node's direct memory grew from " + directBefore + " to " + directMemory(jvm) + " bytes");
            assertEquals(threadsBefore, jvm.threads("polylink-tcp-"));
        }
        echoes.roundTrips(10, "after the attack");
    }

    /** A raw peer that completes the handshake, announces an 8 MiB frame, sends {@code bytes} of it and stalls. */
    private void startLargeFrame(EchoLink echoes, int bytes) throws IOException {
        Socket s = RawTcpPeer.connect(echoes.address());
        sockets.add(s);
        RawTcpPeer.Welcome w = RawTcpPeer.dial(s, ContextId.random(), echoes.node(), 250, 30_000, null);
        assertEquals(RawTcpPeer.Status.ACCEPTED, w.status());
        try {
            OutputStream out = s.getOutputStream();
            out.write(ByteBuffer.allocate(4).putInt(LARGE_FRAME).array());
            out.write(new byte[bytes]);
            out.flush();
        } catch (IOException refusedMeanwhile) {
            // beyond the budget: the node closed it while it sent
        }
    }

    private static long directMemory(RemoteJvm jvm) {
        try {
            return jvm.directMemoryAfterGc();
        } catch (IOException e) {
            throw new AssertionError("the node's JVM no longer answers: " + e, e);
        }
    }

    /**
     * A node whose process may open 128 files runs out of them under idle connections: accepting
     * pauses, longer each time, with a line a second at most, and costs little CPU. Its existing
     * link still serves, and once the connections close a new peer connects.
     */
    @Test
    void aNodeOutOfFileDescriptorsPausesAcceptingWithCountedLinesAndRecovers() throws Exception {
        Assumptions.assumeTrue(prlimitWorks(), "prlimit cannot limit a process's open files here; skipped");
        Path home = Installation.copy(temp.resolve("home"));
        Installation.set(home, "io.polylink.method.tcp.cfg", "failureTimeoutMs", "60000");
        Installation.set(home, "io.polylink.method.tcp.cfg", "heartbeatIntervalMs", "1000");
        NodeProcess b = NodeProcess.start(home, "b", "-Xmx256m", List.of("prlimit", "--nofile=128:128"));
        nodes.add(b);
        EchoLink echoes = new EchoLink(driver(home, Map.of()), "b");
        echoes.roundTrips(10, "before the node ran out of files");
        Duration cpuBefore = ProcessHandle.of(b.pid()).orElseThrow().info().totalCpuDuration().orElseThrow();
        int unanswered = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
        while (System.nanoTime() - end < 0) {
            Socket s = new Socket();
            sockets.add(s);
            try {
                s.connect(echoes.address(), 1000);
                s.setSoTimeout(200);
                RawTcpPeer.dial(s, ContextId.random(), echoes.node(), 1000, 60_000, null);
            } catch (IOException waitingInTheBacklog) {
                unanswered++;
            }
        }
        Duration cpu = ProcessHandle.of(b.pid()).orElseThrow().info().totalCpuDuration().orElseThrow().minus(cpuBefore);
        List<String> lines = b.log().lines().filter(l -> l.contains("tcp cannot accept connections on")).toList();
        System.out.printf("out of files: %d dials unanswered, %d accept lines, %d ms of CPU in 6 s%n", unanswered,
            lines.size(), cpu.toMillis());
        assertTrue(unanswered > 0, "the node never ran out of files under " + sockets.size() + " connections");
        assertTrue(!lines.isEmpty() && lines.size() <= 12, "accept lines: " + lines.size() + "\n" + b.log());
        assertTrue(lines.get(0).matches(".*tcp cannot accept connections on 127\\.0\\.0\\.1:\\d+: java\\.io\\.IOException: "
            + "Too many open files; accepting again in \\d+ ms \\(\\d+ failed in a row\\).*"), lines.get(0));
        assertTrue(cpu.toMillis() < 2000, "the node spent " + cpu.toMillis() + " ms of CPU in 6 s out of files");
        echoes.roundTrips(10, "on the link made before the node ran out of files");

        for (Socket s : sockets) {
            s.close();
        }
        sockets.clear();
        // The node sees the connections close, its pause ends, and it accepts what waits in its
        // backlog, closed meanwhile too, before the new peer's dial.
        EchoLink fresh = new EchoLink(driver(home, Map.of()), "b");
        Driver.await(() -> {
            try {
                fresh.send(0);
            } catch (PolylinkException notYet) {
                return false;
            }
            return fresh.echoed.get() > 0;
        }, Duration.ofSeconds(30), () -> "a new peer never reached the node after its connections closed:\n" + b.log());
        fresh.roundTrips(10, "from a new peer once the connections closed");
        try (RemoteJvm jvm = RemoteJvm.attach(b.pid())) {
            assertEquals(List.of("polylink-tcp-accept", "polylink-tcp-io", "polylink-tcp-timer"),
                jvm.threads("polylink-tcp-"), "the node's tcp threads after it ran out of files");
        }
    }

    private static boolean prlimitWorks() throws InterruptedException {
        try {
            Process p = new ProcessBuilder("prlimit", "--nofile=64:64", "true").inheritIO().start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Context ids are public. A stranger dials the node every 20 ms claiming the driver's id, which
     * has a live connection there: every dial is refused, every echo comes back to the driver, and
     * the node names the refusals a few times a second.
     */
    @Test
    void aDialClaimingALivePeersIdIsRefusedAndThePeerKeepsItsConnection() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        NodeProcess b = NodeProcess.start(home, "b", "-Xmx256m");
        nodes.add(b);
        Driver driver = driver(home, Map.of());
        EchoLink echoes = new EchoLink(driver, "b");
        echoes.roundTrips(10, "before the impostor");
        try (RemoteJvm jvm = RemoteJvm.attach(b.pid())) {
            List<String> threads = jvm.threads("polylink-tcp-");
            Map<RawTcpPeer.Status, AtomicLong> answers = claimFor(Duration.ofSeconds(2), echoes, driver.context().id(),
                () -> echoes.roundTrips(1, "while a stranger claims the driver's id"));
            System.out.println("a stranger claiming a live peer's id every 20 ms for 2 s was answered " + answers);
            assertEquals(0, answers.getOrDefault(RawTcpPeer.Status.ACCEPTED, new AtomicLong()).get(), answers::toString);
            assertTrue(answers.getOrDefault(RawTcpPeer.Status.IN_USE, new AtomicLong()).get() > 0, answers::toString);
            String log = b.log();
            long named = log.lines().filter(l -> l.contains("has a live connection here")).count();
            long refusals = log.lines().filter(l -> l.contains("refused tcp connection from")).count();
            // 20 lines a second for refusals, 5 for busy addresses, for the 2 s and the last probes after
            assertTrue(named > 0 && refusals <= 100, named + " lines name a claim of the live id, " + refusals
                + " refusals in all:\n" + log);
            echoes.roundTrips(100, "after the impostor");
            assertEquals(threads, jvm.threads("polylink-tcp-"));
        }
    }

    /**
     * With a key, a stranger without it, or with another, is refused before it proves anything,
     * one with the key is still refused the driver's live connection, and the driver, which holds
     * the key, keeps its link.
     */
    @Test
    void withAKeyAnImpostorFailsTheChallengeWhileTheRealPeerConnects() throws Exception {
        byte[] key = new byte[32];
        byte[] other = new byte[32];
        for (int i = 0; i < 32; i++) {
            key[i] = (byte) (7 * i + 1);
            other[i] = (byte) (5 * i + 3);
        }
        String psk = Base64.getEncoder().encodeToString(key);
        Path home = Installation.copy(temp.resolve("home"));
        Installation.set(home, "io.polylink.method.tcp.cfg", "psk", psk);
        NodeProcess b = NodeProcess.start(home, "b", "-Xmx256m");
        nodes.add(b);
        Driver driver = driver(home, Map.of("psk", psk));
        EchoLink echoes = new EchoLink(driver, "b");
        echoes.roundTrips(10, "with the key on both");
        ContextId claimed = driver.context().id();
        try (RemoteJvm jvm = RemoteJvm.attach(b.pid())) {
            List<String> threads = jvm.threads("polylink-tcp-");
            assertEquals(RawTcpPeer.Status.KEY_REQUIRED, claim(echoes, claimed, null));
            assertEquals(RawTcpPeer.Status.AUTH_FAILED, claim(echoes, claimed, other));
            assertEquals(RawTcpPeer.Status.IN_USE, claim(echoes, claimed, key));
            assertEquals(RawTcpPeer.Status.ACCEPTED, claim(echoes, ContextId.random(), key), "a peer with the key connects");
            echoes.roundTrips(100, "after the impostors");
            assertEquals(threads, jvm.threads("polylink-tcp-"));
        }
        String log = b.log();
        assertTrue(log.contains("it claims context " + claimed + " without a tcp pre-shared key, which this node "
            + "requires (psk)"), log);
        assertTrue(log.contains("it claims context " + claimed + " but did not prove it holds this node's tcp "
            + "pre-shared key"), log);
    }

    private RawTcpPeer.Status claim(EchoLink echoes, ContextId claimed, byte[] key) throws IOException {
        try (Socket s = RawTcpPeer.connect(echoes.address())) {
            return RawTcpPeer.dial(s, claimed, echoes.node(), 250, 1000, key).status();
        }
    }

    /**
     * Dials claiming {@code claimed} every 20 ms for {@code time}, each on a thread of its own as it
     * waits for its answer, running {@code meanwhile} between them.
     *
     * @return how often each answer came; a dial the node closed without one (the most handshakes
     *     one address may have were under way) counts under {@code null}
     */
    private Map<RawTcpPeer.Status, AtomicLong> claimFor(Duration time, EchoLink echoes, ContextId claimed,
                                                        Runnable meanwhile) throws InterruptedException {
        Map<RawTcpPeer.Status, AtomicLong> answers = new ConcurrentHashMap<>();
        AtomicLong closed = new AtomicLong();
        ExecutorService dials = Executors.newFixedThreadPool(64, r -> new Thread(r, "test-impostor"));
        try {
            long end = System.nanoTime() + time.toNanos();
            while (System.nanoTime() - end < 0) {
                dials.execute(() -> {
                    try {
                        answers.computeIfAbsent(claim(echoes, claimed, null), s -> new AtomicLong()).incrementAndGet();
                    } catch (IOException e) {
                        closed.incrementAndGet();
                    }
                });
                meanwhile.run();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // the attacker's pace
            }
        } finally {
            dials.shutdown();
            assertTrue(dials.awaitTermination(30, TimeUnit.SECONDS), "the impostor's dials did not finish");
        }
        System.out.println(closed.get() + " dials closed without an answer");
        return answers;
    }
}
