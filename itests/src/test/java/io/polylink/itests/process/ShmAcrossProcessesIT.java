package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.ContextId;
import io.polylink.Endpoint;
import io.polylink.Explanation;
import io.polylink.LinkException;
import io.polylink.MessageBuffer;
import io.polylink.NoApplicableMethodException;
import io.polylink.Startpoint;
import io.polylink.Verdict;
import io.polylink.testkit.LogCapture;
import io.polylink.testkit.SequenceCheck;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Felix nodes in their own JVMs on this host, with shm and tcp installed: they pick shm by
 * themselves. The rings are 64 KiB, so records hold at most 8 KiB and larger RSRs are split.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ShmAcrossProcessesIT {

    private static final int SINK = 7;
    private static final Map<String, Object> SMALL_RING = Map.of("ringBytes", "65536");
    /** Largest record body of a 64 KiB ring: an eighth of it, less the record header. */
    private static final int SPLIT = 65536 / 8 - 8;

    @TempDir
    Path temp;

    private final List<NodeProcess> nodes = new ArrayList<>();
    private final List<Driver> drivers = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        drivers.forEach(Driver::close);
        NodeProcess.closeAll(nodes);
    }

    private Path home() throws IOException {
        Path home = Installation.copy(temp.resolve("home"));
        Installation.set(home, "io.polylink.method.shm.cfg", "ringBytes", "65536");
        // The nodes relay to one another before they have a connection: the system endpoint must send anywhere.
        Installation.set(home, "io.polylink.core.cfg", "systemTargets", "any");
        return home;
    }

    private NodeProcess node(Path home, String name) throws Exception {
        NodeProcess n = NodeProcess.start(home, name, "-Xmx256m");
        nodes.add(n);
        return n;
    }

    private Driver driver(Path home) {
        Driver d = new Driver(home, SMALL_RING);
        drivers.add(d);
        return d;
    }

    private static List<String> segments(Path home) throws IOException {
        try (Stream<Path> files = Files.list(Installation.shmDirectory(home))) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static long checksum(long seq, byte[] body) {
        CRC32C crc = new CRC32C();
        crc.update(body);
        return crc.getValue() ^ seq * 0x9E3779B97F4A7C15L;
    }

    /** Mostly small, every 50th just below or above the split boundary. */
    private static byte[] body(long seq) {
        int size = seq % 50 == 0 ? SPLIT - 100 + (int) (seq / 50 % 200) : (int) (seq % 97);
        byte[] body = new byte[size];
        Arrays.fill(body, (byte) seq);
        if (size > 0) {
            body[size / 2] = (byte) (seq >>> 8);
        }
        return body;
    }

    private static String chosen(Startpoint s) {
        return s.explain().get(0).chosen().orElseThrow().descriptor().stack();
    }

    @Test
    void aMillionRsrsRelayedBetweenTwoNodesOverShmArriveOnceInOrderAndIntact() throws Exception {
        Path home = home();
        node(home, "a");
        node(home, "b");
        Driver driver = driver(home);
        Context me = driver.context();
        SequenceCheck check = new SequenceCheck();
        Endpoint sink = me.createEndpoint().register(SINK, (e, m) -> {
            long seq = m.getLong();
            byte[] body = m.getBytes();
            check.accept(seq, m.getLong() == checksum(seq, body));
        });
        Startpoint relayAtA = driver.lookup("a");
        Startpoint echoAtB = driver.lookup("b");
        Startpoint back = sink.startpoint();
        MessageBuffer message = me.allocateBuffer(SPLIT + 512);
        int total = 1_000_000;
        int window = 20_000;
        long start = System.nanoTime();
        for (long seq = 0; seq < total; seq++) {
            long inFlight = seq;
            Driver.awaitWindow(() -> inFlight - check.delivered() < window, () -> check.summary(inFlight));
            byte[] body = body(seq);
            relayAtA.send(Driver.RELAY, message.clear().putStartpoint(echoAtB).putInt(Driver.ECHO)
                .putStartpoint(back).putInt(SINK).putLong(seq).putBytes(body).putLong(checksum(seq, body)));
        }
        Driver.await(() -> check.delivered() >= total, Duration.ofMinutes(3), () -> check.summary(total));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        System.out.printf("1e6 RSRs driver -> a (relay) -> b (echo) -> driver over shm: %s in %d ms (%.0f RSR/s)%n",
            check.summary(total), ms, total * 1000.0 / ms);
        assertTrue(check.perfect(total), check.summary(total));
        assertEquals("shm", chosen(relayAtA));
        assertEquals("shm", chosen(echoAtB));
    }

    @Test
    void threeProducerNodesIntoOneConsumerAndAProducerKilledMidStreamLeavesTheOthersWhole() throws Exception {
        Path home = home();
        List<NodeProcess> producers = List.of(node(home, "p0"), node(home, "p1"), node(home, "p2"));
        node(home, "c");
        Driver driver = driver(home);
        Context me = driver.context();
        List<SequenceCheck> checks = List.of(new SequenceCheck(), new SequenceCheck(), new SequenceCheck());
        Endpoint sink = me.createEndpoint().register(SINK, (e, m) -> {
            int producer = m.getInt();
            long seq = m.getLong();
            byte[] body = m.getBytes();
            checks.get(producer).accept(seq, m.getLong() == checksum(seq, body));
        });
        List<Startpoint> relays = List.of(driver.lookup("p0"), driver.lookup("p1"), driver.lookup("p2"));
        Startpoint echoAtC = driver.lookup("c");
        Startpoint back = sink.startpoint();
        MessageBuffer message = me.allocateBuffer(SPLIT + 512);
        int each = 30_000;
        int killAt = 10_000;
        long[] sent = new long[3];
        boolean killed = false;
        for (long seq = 0; seq < each; seq++) {
            for (int p = 0; p < 3; p++) {
                if (p == 1 && killed) {
                    continue;
                }
                int producer = p;
                Driver.awaitWindow(() -> sent[producer] - checks.get(producer).delivered() < 5_000,
                    () -> "p" + producer + ": " + checks.get(producer).summary(sent[producer]));
                byte[] body = body(seq);
                relays.get(p).send(Driver.RELAY, message.clear().putStartpoint(echoAtC).putInt(Driver.ECHO)
                    .putStartpoint(back).putInt(SINK).putInt(p).putLong(seq).putBytes(body)
                    .putLong(checksum(seq, body)));
                sent[p]++;
            }
            if (seq == killAt) {
                // Mid-stream: p1 is relaying into c's inbox while p0 and p2 keep writing to it too.
                producers.get(1).kill();
                killed = true;
            }
        }
        Driver.await(() -> checks.get(0).delivered() >= each && checks.get(2).delivered() >= each,
            Duration.ofMinutes(2), () -> "p0: " + checks.get(0).summary(each) + "; p2: " + checks.get(2).summary(each));
        assertTrue(checks.get(0).perfect(each), "p0: " + checks.get(0).summary(each));
        assertTrue(checks.get(2).perfect(each), "p2: " + checks.get(2).summary(each));
        SequenceCheck dead = checks.get(1);
        System.out.println("three producers into one consumer, p1 killed after " + killAt + ": p1 " + dead.summary(sent[1]));
        assertTrue(dead.summary(sent[1]).contains("duplicated 0, reordered 0, corrupted 0"), dead.summary(sent[1]));
        assertEquals("shm", chosen(echoAtC));
        assertTrue(nodes.get(3).log().lines().noneMatch(l -> l.contains("SEVERE")), nodes.get(3).log());
    }

    @Test
    void aConsumerKilledWithSignal9FailsSendersWithinASecondAndItsSegmentIsRemovedAtTheNextStart() throws Exception {
        Path home = home();
        NodeProcess b = node(home, "b");
        Driver driver = driver(home);
        EchoLink echoes = new EchoLink(driver, "b");
        Context me = driver.context();
        AtomicLong echoed = echoes.echoed;
        Endpoint sink = echoes.sink;
        Startpoint echoAtB = echoes.echo;
        MessageBuffer message = echoes.message;
        for (int i = 0; i < 1000; i++) {
            echoes.send(i);
        }
        Driver.await(() -> echoed.get() == 1000, Duration.ofSeconds(30), () -> echoed.get() + " of 1000 echoed");

        Explanation why = echoAtB.explain().get(0);
        System.out.println(why);
        assertEquals(List.of("local", "shm", "tcp"), why.entries().stream().map(e -> e.descriptor().stack()).toList());
        assertEquals(Verdict.CHOSEN, why.entries().get(1).verdict());
        assertEquals(Verdict.NOT_CONSIDERED, why.entries().get(2).verdict());
        assertEquals("entry 2 was chosen first", why.entries().get(2).reason());

        // An inbox is created under a temporary name and renamed into place: wait for both names.
        Driver.await(() -> segmentsQuietly(home).stream().filter(n -> n.endsWith(".inbox")).count() == 2,
            Duration.ofSeconds(10), () -> "one inbox for b and one for the driver: " + segmentsQuietly(home));
        List<String> before = segments(home);
        assertEquals(2, before.size(), "one inbox for b and one for the driver: " + before);
        b.kill();
        long killed = System.nanoTime();
        long failedAfterMs = -1;
        String error = null;
        while (failedAfterMs < 0 && System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(10)) {
            try {
                echoAtB.send(Driver.ECHO, message.clear().putStartpoint(sink.startpoint()).putInt(SINK).putLong(0));
                LockSupport.parkNanos(100_000);
            } catch (LinkException | NoApplicableMethodException e) {
                failedAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
                error = e.getMessage();
            }
        }
        System.out.println("shm sends to a consumer killed with -9 failed after " + failedAfterMs + " ms: " + error);
        assertTrue(failedAfterMs >= 0 && failedAfterMs <= 1000, "sends failed after " + failedAfterMs + " ms");
        assertTrue(error.contains("process " + b.pid()) && error.contains("is gone"), error);

        // b left its inbox behind. Once its heartbeat is stale, the next context to start removes it.
        Path left = Installation.shmDirectory(home).resolve(before.stream()
            .filter(n -> !n.startsWith(hex(me.id()))).findFirst().orElseThrow());
        assertTrue(Files.exists(left), "a killed context cannot clean up");
        Driver.await(() -> heartbeatAge(left) > 1000, Duration.ofSeconds(10), () -> "heartbeat still fresh");
        NodeProcess c = node(home, "c");
        // "up" comes before Declarative Services has started c's methods: wait for c's inbox.
        Driver.await(() -> segmentsQuietly(home).size() == 2 && !Files.exists(left), Duration.ofSeconds(30),
            () -> "c's inbox did not replace b's stale one: " + segmentsQuietly(home));
        Driver.await(() -> c.log().contains("removed 1 stale shm segment"), Duration.ofSeconds(10), c::log);

        // The driver reaches c by shm, and a clean stop of c leaves only the driver's inbox.
        Startpoint echoAtC = driver.lookup("c");
        long had = echoed.get();
        echoAtC.send(Driver.ECHO, message.clear().putStartpoint(sink.startpoint()).putInt(SINK).putLong(1));
        Driver.await(() -> echoed.get() > had, Duration.ofSeconds(10), () -> "c did not echo");
        assertEquals("shm", chosen(echoAtC));
        c.stop();
        Driver.await(() -> segmentsQuietly(home).size() == 1, Duration.ofSeconds(10),
            () -> "after c stopped: " + segmentsQuietly(home));
        drivers.remove(driver);
        driver.close();
        assertEquals(List.of(), segments(home), "a clean shutdown leaves no files");
    }

    @Test
    void aConsumerStoppedBySignalIsDeclaredDeadAndTheLinkComesBackWhenItContinues() throws Exception {
        Path home = home();
        NodeProcess b = node(home, "b");
        EchoLink echoes = new EchoLink(driver(home), "b");
        echoes.send(0);
        Driver.await(() -> echoes.echoed.get() == 1, Duration.ofSeconds(30), () -> "no echo");
        assertEquals("shm", chosen(echoes.echo));

        try (LogCapture log = new LogCapture("io.polylink.core")) {
            b.signal("STOP");
            long stopped = System.nanoTime();
            String said = "process " + b.pid() + " of context ";
            Driver.await(() -> log.lines().stream().anyMatch(l -> l.contains(said) && l.contains("is stopped")),
                Duration.ofSeconds(30), () -> "a stopped consumer was never declared dead: " + log.lines());
            System.out.println("a SIGSTOPped consumer was declared dead after "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped) + " ms (failureTimeoutMs=1000)");
            b.signal("CONT");
            assertTrue(log.lines().stream().noneMatch(l -> l.contains("is gone")), String.join("\n", log.lines()));
        }
        long had = echoes.echoed.get();
        Driver.await(() -> {
            try {
                echoes.send(1);
            } catch (LinkException | NoApplicableMethodException e) {
                return false;
            }
            return echoes.echoed.get() > had;
        }, Duration.ofSeconds(30), () -> "no echo after the consumer continued");
    }

    @Test
    void roundTripLatencyBetweenTwoProcesses() throws Exception {
        Path home = home();
        node(home, "b");
        Driver driver = driver(home);
        Context me = driver.context();
        AtomicLong last = new AtomicLong(-1);
        Endpoint sink = me.createEndpoint().register(SINK, (e, m) -> last.set(m.getLong()));
        Startpoint echoAtB = driver.lookup("b");
        MessageBuffer message = me.allocateBuffer(64);
        int warm = 5_000;
        int rounds = 10_000;
        long[] rtt = new long[rounds];
        for (int i = 0; i < warm + rounds; i++) {
            long t0 = System.nanoTime();
            echoAtB.send(Driver.ECHO, message.clear().putStartpoint(sink.startpoint()).putInt(SINK).putLong(i));
            long deadline = t0 + TimeUnit.SECONDS.toNanos(10);
            while (last.get() != i) {
                assertTrue(System.nanoTime() - deadline < 0, "echo " + i + " missing after 10 s");
                Thread.onSpinWait();
            }
            if (i >= warm) {
                rtt[i - warm] = System.nanoTime() - t0;
            }
        }
        Arrays.sort(rtt);
        System.out.printf("shm round trip driver -> node echo -> driver (spin-then-park, 10 000 after 5 000 warm-up):"
            + " median %.1f us, p90 %.1f us, p99 %.1f us%n", rtt[rounds / 2] / 1e3, rtt[rounds * 9 / 10] / 1e3,
            rtt[rounds * 99 / 100] / 1e3);
        assertEquals("shm", chosen(echoAtB));
    }

    private static String hex(ContextId id) {
        return String.format("%016x%016x", id.high(), id.low());
    }

    private static List<String> segmentsQuietly(Path home) {
        try {
            return segments(home);
        } catch (IOException e) {
            return List.of("(" + e.getMessage() + ")");
        }
    }

    /** Age of an inbox's heartbeat, read from its header as the cleanup does (offset 72, native order). */
    private static long heartbeatAge(Path inbox) {
        try (FileChannel channel = FileChannel.open(inbox, StandardOpenOption.READ)) {
            ByteBuffer header = ByteBuffer.allocate(80).order(ByteOrder.nativeOrder());
            channel.read(header, 0);
            return System.currentTimeMillis() - header.getLong(72);
        } catch (IOException e) {
            throw new AssertionError("cannot read " + inbox, e);
        }
    }
}
