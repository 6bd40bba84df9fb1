package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.Endpoint;
import io.polylink.LinkException;
import io.polylink.MessageBuffer;
import io.polylink.NoApplicableMethodException;
import io.polylink.Startpoint;
import io.polylink.testkit.SequenceCheck;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Felix nodes in their own JVMs, talking tcp over loopback, driven from this JVM's context. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TcpAcrossProcessesIT {

    private static final int SINK = 7;

    @TempDir
    Path temp;

    private final List<NodeProcess> nodes = new ArrayList<>();
    private final List<Driver> drivers = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        drivers.forEach(Driver::close);
        NodeProcess.closeAll(nodes);
    }

    private NodeProcess node(Path home, String name, String javaOptions) throws Exception {
        NodeProcess n = NodeProcess.start(home, name, javaOptions);
        nodes.add(n);
        return n;
    }

    private Driver driver(Path home) {
        Driver d = new Driver(home);
        drivers.add(d);
        return d;
    }

    /**
     * Sends until a send fails, for at most 10 s.
     *
     * @param expected text the failure must contain
     * @return milliseconds from the call to the first failed send, or -1 if none failed
     */
    private static long millisUntilSendsFail(Runnable send, String expected) {
        long start = System.nanoTime();
        while (System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10)) {
            try {
                send.run();
            } catch (LinkException | NoApplicableMethodException e) {
                assertTrue(e.getMessage().contains(expected), e.getMessage());
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            }
        }
        return -1;
    }

    /** A port nobody listens on now, so a restarted node can come back at the same address. */
    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    private static long checksum(long seq, byte[] body) {
        CRC32C crc = new CRC32C();
        crc.update(body);
        return crc.getValue() ^ seq * 0x9E3779B97F4A7C15L;
    }

    @Test
    void aMillionRsrsRelayedBetweenTwoFelixNodesArriveOnceInOrderAndIntact() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        // a relays to b before they have a connection: its system endpoint must send anywhere.
        Installation.set(home, "io.polylink.core.cfg", "systemTargets", "any");
        node(home, "a", "-Xmx256m");
        node(home, "b", "-Xmx256m");
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
        MessageBuffer message = me.allocateBuffer(512);
        int total = 1_000_000;
        int window = 20_000;
        long start = System.nanoTime();
        for (long seq = 0; seq < total; seq++) {
            long inFlight = seq;
            Driver.awaitWindow(() -> inFlight - check.delivered() < window, () -> check.summary(inFlight));
            byte[] body = new byte[(int) (seq % 97)];
            Arrays.fill(body, (byte) seq);
            relayAtA.send(Driver.RELAY, message.clear().putStartpoint(echoAtB).putInt(Driver.ECHO)
                .putStartpoint(back).putInt(SINK).putLong(seq).putBytes(body).putLong(checksum(seq, body)));
        }
        Driver.await(() -> check.delivered() >= total, Duration.ofMinutes(4), () -> check.summary(total));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        System.out.printf("1e6 RSRs driver -> a (relay) -> b (echo) -> driver over tcp: %s in %d ms (%.0f RSR/s)%n",
            check.summary(total), ms, total * 1000.0 / ms);
        assertTrue(check.perfect(total), check.summary(total));
        assertEquals("tcp", relayAtA.explain().get(0).chosen().orElseThrow().descriptor().stack());
    }

    @Test
    void aNodeKilledMidStreamFailsTheSenderWithinTheBoundAndServesAgainAfterRestart() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        Installation.set(home, "io.polylink.core.cfg", "id", "6f1d7c2a-0000-4000-8000-00000000000b");
        Installation.set(home, "io.polylink.method.tcp.cfg", "port", Integer.toString(freePort()));
        node(home, "b", "");
        Driver driver = driver(home);
        Context me = driver.context();
        AtomicLong echoed = new AtomicLong();
        Endpoint sink = me.createEndpoint().register(SINK, (e, m) -> echoed.incrementAndGet());
        Startpoint echoAtB = driver.lookup("b");
        MessageBuffer message = me.allocateBuffer(64);
        for (int i = 0; i < 1000; i++) {
            echoAtB.send(Driver.ECHO, message.clear().putStartpoint(sink.startpoint()).putInt(SINK).putLong(i));
        }
        Driver.await(() -> echoed.get() == 1000, Duration.ofSeconds(30), () -> echoed.get() + " of 1000 echoed");

        nodes.get(0).kill();
        long failedAfterMs = millisUntilSendsFail(() -> echoAtB.send(Driver.ECHO,
            message.clear().putStartpoint(sink.startpoint()).putInt(SINK).putLong(0)), "127.0.0.1");
        System.out.println("sends to a node killed with -9 failed after " + failedAfterMs + " ms");
        assertTrue(failedAfterMs >= 0 && failedAfterMs <= 1000, "sends failed after " + failedAfterMs + " ms");

        node(home, "b", "");
        long before = echoed.get();
        long restarted = System.nanoTime();
        AtomicReference<Exception> lastRefusal = new AtomicReference<>();
        AtomicLong accepted = new AtomicLong();
        Driver.await(() -> {
            try {
                echoAtB.send(Driver.ECHO, message.clear().putStartpoint(sink.startpoint()).putInt(SINK).putLong(1));
                accepted.incrementAndGet();
            } catch (LinkException | NoApplicableMethodException e) {
                lastRefusal.set(e);
                return false;
            }
            return echoed.get() > before;
        }, Duration.ofSeconds(30), () -> "the same startpoint never reached the restarted node: " + accepted
            + " sends accepted, last refusal " + lastRefusal.get() + "; links " + driver.embedded().links());
        System.out.println("the restarted node answered after " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restarted)
            + " ms, " + accepted + " sends accepted; last refusal before: " + lastRefusal.get());
    }

    @Test
    void aNodeThatGoesSilentIsDeclaredDeadWithinTheFailureTimeout() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        NodeProcess b = node(home, "b", "");
        Driver driver = driver(home);
        Context me = driver.context();
        AtomicLong echoed = new AtomicLong();
        Endpoint sink = me.createEndpoint().register(SINK, (e, m) -> echoed.incrementAndGet());
        Startpoint echoAtB = driver.lookup("b");
        MessageBuffer message = me.allocateBuffer(64);
        echoAtB.send(Driver.ECHO, message.clear().putStartpoint(sink.startpoint()).putInt(SINK));
        Driver.await(() -> echoed.get() == 1, Duration.ofSeconds(30), () -> "no echo");

        b.signal("STOP");
        long failedAfterMs = millisUntilSendsFail(() -> echoAtB.send(Driver.ECHO,
            message.clear().putStartpoint(sink.startpoint()).putInt(SINK)), "peer silent");
        b.signal("CONT");
        System.out.println("sends to a SIGSTOPped node failed after " + failedAfterMs + " ms (failureTimeoutMs=1000)");
        // A loop that runs late (CPU starvation) does not count against the peer, so allow 2 s over.
        assertTrue(failedAfterMs >= 900 && failedAfterMs <= 3000,
            "a silent peer is declared dead after about the failure timeout, not " + failedAfterMs + " ms");
    }

    @Test
    void aStalledReceiverDoesNotMakeASendingNodeRunOutOfMemory() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        NodeProcess a = node(home, "a", "-Xmx256m");
        Driver driver = driver(home);
        Context me = driver.context();
        CountDownLatch stall = new CountDownLatch(1);
        AtomicLong arrived = new AtomicLong();
        Endpoint slow = me.createEndpoint().register(SINK, (e, m) -> {
            if (arrived.incrementAndGet() == 1) {
                stall.await(10, TimeUnit.SECONDS);
            }
        });
        // With the default 5 s send timeout the 10 s below hold at most two refusals, and none
        // when the buffers on the way take more than 5 s to fill (seen: 976 RSRs accepted first).
        Startpoint relayAtA = driver.lookup("a").parameter("tcp", "sendTimeoutMs", "500");
        Startpoint slowHere = slow.startpoint();
        byte[] body = new byte[16 * 1024];
        MessageBuffer message = me.allocateBuffer(body.length + 128);
        long sent = 0;
        long refused = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() - end < 0) {
            try {
                relayAtA.send(Driver.RELAY, message.clear().putStartpoint(slowHere).putInt(SINK)
                    .putStartpoint(slowHere).putRaw(body, 0, body.length));
                sent++;
            } catch (LinkException e) {
                refused++;
            }
        }
        stall.countDown();
        System.out.printf("stalled receiver, 10 s: %d RSRs of 16 KiB accepted, %d pushed back%n", sent, refused);
        assertTrue(refused > 0, "a stalled receiver pushed back on the sender");
        assertTrue(!a.log().contains("OutOfMemoryError"), a.log());
        long before = arrived.get();
        Driver.await(() -> {
            try {
                relayAtA.send(Driver.RELAY, me.allocateBuffer(128).putStartpoint(slowHere).putInt(SINK)
                    .putStartpoint(slowHere));
            } catch (LinkException e) {
                return false;
            }
            return arrived.get() > before;
        }, Duration.ofSeconds(30), () -> "traffic did not resume after the stall:\n" + a.log());
        assertTrue(!a.log().contains("OutOfMemoryError"), a.log());
    }
}
