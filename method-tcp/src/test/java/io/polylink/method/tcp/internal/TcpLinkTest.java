package io.polylink.method.tcp.internal;

import static io.polylink.method.tcp.internal.TcpContexts.checkedSink;
import static io.polylink.method.tcp.internal.TcpContexts.checksum;
import static io.polylink.method.tcp.internal.TcpContexts.in;
import static io.polylink.method.tcp.internal.TcpContexts.linked;
import static io.polylink.method.tcp.internal.TcpContexts.listening;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.Endpoint;
import io.polylink.LinkException;
import io.polylink.MessageBuffer;
import io.polylink.NoApplicableMethodException;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.method.tcp.internal.address.TcpAddress;
import io.polylink.spi.Connection;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import io.polylink.testkit.ThreadCpu;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Contexts in one JVM joined by real tcp sockets on 127.0.0.1: what links see. */
class TcpLinkTest {

    private final TcpContexts tcp = new TcpContexts();

    @AfterEach
    void close() {
        tcp.close();
    }

    @Test
    void aPeerWhoseMethodWasReplacedDialsAgainAtOnceThoughThisSideHasNotReadTheOldConnectionsClose()
            throws Exception {
        Map<String, Object> settings = Map.of("bindAddress", "127.0.0.1", "connectTimeoutMs", "10000");
        Context a = tcp.open(settings);
        Context b = tcp.open();
        CountDownLatch release = new CountDownLatch(1);
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> {
            int n = m.getInt();
            seen.add(n);
            if (n == 1) {
                release.await(60, TimeUnit.SECONDS); // b's I/O thread, held here, reads no close
            }
        }).startpoint());
        s.send(1, a.allocateBuffer(4).putInt(1));
        Await.until(() -> seen.contains(1), Duration.ofSeconds(10), () -> "the first RSR did not arrive");
        EmbeddedContext here = tcp.embedded(0);
        here.remove(tcp.method(0));
        here.add(new TcpMethod(settings), 50); // what a bundle update of method-tcp does to a
        ExecutorService sending = Executors.newSingleThreadExecutor();
        try {
            Future<?> second = sending.submit(() -> s.send(1, a.allocateBuffer(4).putInt(2)));
            long start = System.nanoTime();
            try {
                second.get(5, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError("a's new tcp method is still dialling b after 5 s: b answered DUPLICATE "
                    + "for a connection that is gone at a's end, and a waits out its 10 s connect timeout");
            }
            System.out.printf("a's new tcp method reached b in %d ms%n",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        } finally {
            release.countDown();
            sending.shutdownNow();
            assertTrue(sending.awaitTermination(30, TimeUnit.SECONDS), "the sender did not finish");
        }
        Await.until(() -> seen.contains(2), Duration.ofSeconds(10), () -> "the second RSR did not arrive: " + seen);
        assertEquals(List.of(1, 2), seen, "each RSR once, in order");
    }

    @Test
    void aHundredThousandRsrsArriveOnceAndInOrderWithChecksums() {
        Context a = tcp.open();
        Context b = tcp.open();
        AtomicLong next = new AtomicLong();
        List<String> problems = new CopyOnWriteArrayList<>();
        Endpoint sink = checkedSink(b, next, problems);
        Startpoint s = in(a, sink.startpoint());
        MessageBuffer message = a.allocateBuffer(2048);
        for (long i = 0; i < 100_000; i++) {
            byte[] body = new byte[(int) (i % 1500)];
            Arrays.fill(body, (byte) i);
            s.send(1, message.clear().putLong(i).putBytes(body).putLong(checksum(i, body)));
        }
        Await.until(() -> next.get() == 100_000, Duration.ofSeconds(30), () -> next.get() + " of 100000 arrived");
        assertEquals(List.of(), problems);
        assertEquals("tcp", s.explain().get(0).chosen().orElseThrow().descriptor().stack());
    }

    @Test
    void framesOfEverySizeClassArriveIntactWhenMixedInOneStream() {
        Context a = tcp.open();
        Context b = tcp.open();
        AtomicLong next = new AtomicLong();
        List<String> problems = new CopyOnWriteArrayList<>();
        Endpoint sink = checkedSink(b, next, problems);
        Startpoint s = in(a, sink.startpoint());
        // Small frames share reads; frames over the 64 KiB read buffer are reassembled, across reads.
        int[] sizes = {10, 70_000, 3, 200_000, 65_536, 600_000, 1_500, 131_000, 64_000};
        MessageBuffer message = a.allocateBuffer(700_000);
        int count = 3_000;
        for (long i = 0; i < count; i++) {
            byte[] body = new byte[sizes[(int) (i % sizes.length)]];
            Arrays.fill(body, (byte) i);
            body[body.length - 1] = (byte) (i >> 8);
            s.send(1, message.clear().putLong(i).putBytes(body).putLong(checksum(i, body)));
        }
        Await.until(() -> next.get() == count, Duration.ofSeconds(60), () -> next.get() + " of " + count + " arrived");
        assertEquals(List.of(), problems);
    }

    /**
     * Counts are kept without atomic adds: by whoever holds the send lock, and by the I/O thread.
     * Senders on four threads, some frames queued behind a full socket: each side's sent counts
     * must end equal to the other's received counts, and cover every RSR.
     */
    @Test
    void everyFrameAndByteIsCountedOnceWithSendersOnSeveralThreads() throws Exception {
        Context a = tcp.open();
        Context b = tcp.open();
        AtomicLong received = new AtomicLong();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> received.incrementAndGet()).startpoint());
        int threads = 4;
        int each = 20_000;
        ExecutorService senders = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> sending = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int size = 16 << (3 * t); // 16 B to 8 KiB, so some sends fill the socket
                sending.add(senders.submit(() -> {
                    MessageBuffer message = a.allocateBuffer(size).putRaw(new byte[size], 0, size);
                    for (int i = 0; i < each; i++) {
                        s.send(1, message);
                    }
                    return null;
                }));
            }
            for (Future<?> f : sending) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            senders.shutdownNow();
        }
        long total = (long) threads * each;
        Await.until(() -> received.get() == total, Duration.ofSeconds(30), () -> received.get() + " of " + total);
        TcpMethod ofA = tcp.method(0);
        TcpMethod ofB = tcp.method(1);
        Await.until(() -> ofA.statistics().messagesSent() == ofB.statistics().messagesReceived()
                && ofB.statistics().messagesSent() == ofA.statistics().messagesReceived()
                && ofA.statistics().bytesSent() == ofB.statistics().bytesReceived()
                && ofB.statistics().bytesSent() == ofA.statistics().bytesReceived(),
            Duration.ofSeconds(10), () -> "a: " + ofA.statistics() + ", b: " + ofB.statistics());
        assertTrue(ofA.statistics().messagesSent() >= total, "a sent " + ofA.statistics());
        assertEquals(0, ofA.statistics().errors());
        assertEquals(0, ofB.statistics().errors());
    }

    @Test
    void aSteadyStreamLongerThanTheFailureTimeoutIsNotMistakenForADribblingPeer() {
        Map<String, Object> quick = Map.of("bindAddress", "127.0.0.1", "failureTimeoutMs", "300",
            "heartbeatIntervalMs", "100");
        Context a = tcp.open(quick);
        Context b = tcp.open(quick);
        AtomicLong received = new AtomicLong();
        // A receiver slower than the sender keeps the socket full, so nearly every read ends mid-frame.
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> {
            long until = System.nanoTime() + 20_000;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            received.incrementAndGet();
        }).startpoint());
        MessageBuffer message = a.allocateBuffer(1000).putRaw(new byte[999], 0, 999);
        long sent = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (System.nanoTime() - end < 0) {
            s.send(1, message);
            sent++;
        }
        long total = sent;
        Await.until(() -> received.get() == total, Duration.ofSeconds(20), () -> received.get() + " of " + total);
        assertEquals(0, b.statistics().errors());
        assertEquals(1, tcp.method(0).connectionCount(), "the connection was never replaced");
    }

    @Test
    void bothSidesDiallingAtOnceEndWithOneConnection() throws Exception {
        for (int round = 0; round < 20; round++) {
            Context a = tcp.open();
            Context b = tcp.open();
            TcpMethod ta = tcp.method(2 * round);
            TcpMethod tb = tcp.method(2 * round + 1);
            byte[] addressOfB = tb.localAddress();
            byte[] addressOfA = ta.localAddress();
            CyclicBarrier start = new CyclicBarrier(2);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<Connection> ab = pool.submit(() -> {
                    start.await();
                    return ta.connect(b.id(), addressOfB, Map.of());
                });
                Future<Connection> ba = pool.submit(() -> {
                    start.await();
                    return tb.connect(a.id(), addressOfA, Map.of());
                });
                Connection fromA = ab.get(10, TimeUnit.SECONDS);
                Connection fromB = ba.get(10, TimeUnit.SECONDS);
                assertTrue(fromA.isOpen() && fromB.isOpen(), "round " + round);
                assertSame(fromA, ta.connect(b.id(), addressOfB, Map.of()), "round " + round);
                assertEquals(1, ta.connectionCount(), "round " + round + ": connections at a");
                assertEquals(1, tb.connectionCount(), "round " + round + ": connections at b");
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void aPeerThatStopsMakesSendsFailWithinTheBoundAndANewPeerWorks() {
        Context a = tcp.open();
        Context b = tcp.open();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint s = linked(a, b, seen);

        tcp.embedded(1).close();
        long stopped = System.nanoTime();
        Await.until(() -> {
            try {
                s.send(1, a.allocateBuffer(4).putInt(2));
                return false;
            } catch (NoApplicableMethodException | LinkException e) {
                return true;
            }
        }, Duration.ofSeconds(1), () -> "sends to a stopped peer still succeed");
        System.out.printf("sends failed %d ms after the peer stopped%n",
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped));
        // Selection's refusal, prefixed with why the connection failed if no send has said it yet.
        io.polylink.PolylinkException e = assertThrows(io.polylink.PolylinkException.class,
            () -> s.send(1, a.allocateBuffer(4).putInt(3)));
        assertTrue(e.getMessage().contains("tcp refused (connection refused 127.0.0.1:"), e.getMessage());

        Context c = tcp.open();
        List<Integer> atC = new CopyOnWriteArrayList<>();
        Startpoint toC = in(a, c.createEndpoint().register(1, (x, m) -> atC.add(m.getInt())).startpoint());
        toC.send(1, a.allocateBuffer(4).putInt(4));
        Await.until(() -> atC.contains(4), Duration.ofSeconds(5), () -> "a cannot reach a new peer");
    }

    @Test
    void contextsListeningOnTheIpv6LoopbackReachEachOther() {
        Map<String, Object> v6 = Map.of("bindAddress", "::1");
        Context a = tcp.open(v6);
        Context b = tcp.open(v6);
        assertEquals(List.of(new InetSocketAddress("::1", listening(b).getPort())),
            TcpAddress.decode(tcp.method(1).localAddress()), "b's descriptor");
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint s = linked(a, b, seen);
        assertTrue(s.explain().toString().contains("tcp chosen (reachable at [::1]:"), s.explain().toString());
    }

    @Test
    void aPeerThatClosesInOrderIsNotReportedAsALostConnection() {
        linked(tcp.open(), tcp.open(), new CopyOnWriteArrayList<>());
        TcpMethod atA = tcp.method(0);
        try (LogCapture core = new LogCapture("io.polylink.core");
             LogCapture tcpLog = new LogCapture("io.polylink.method.tcp")) {
            tcp.embedded(1).close();
            Await.until(() -> atA.connectionCount() == 0, Duration.ofSeconds(5),
                () -> "a still holds its connection to b, which closed");
            assertEquals(List.of(), core.lines(), "a's core on b's orderly shutdown");
            assertEquals(List.of(), tcpLog.lines(), "a's tcp method on b's orderly shutdown");
        }
    }

    @Test
    void aStartpointToARestartedContextIsRefusedAsBelongingToAnother() {
        Context a = tcp.open();
        Context b = tcp.open(Map.of("bindAddress", "127.0.0.1"));
        Startpoint s = in(a, b.createEndpoint().startpoint());
        int port = listening(b).getPort();
        tcp.embedded(1).close();
        // The kernel frees the port a moment after the listener closes; retry, bounded.
        java.util.concurrent.atomic.AtomicReference<Context> rebound = new java.util.concurrent.atomic.AtomicReference<>();
        Await.until(() -> {
            try {
                rebound.set(tcp.open(Map.of("bindAddress", "127.0.0.1", "port", port)));
                return true;
            } catch (io.polylink.PolylinkException addressInUse) {
                return false;
            }
        }, Duration.ofSeconds(10), () -> "port " + port + " never became free again");
        Context reborn = rebound.get();
        io.polylink.PolylinkException e = assertThrows(io.polylink.PolylinkException.class,
            () -> s.send(1, a.allocateBuffer(0)));
        assertTrue(e.getMessage().contains("belongs to context " + reborn.id() + ", not " + b.id()), e.getMessage());
    }

    @Test
    void unknownLinkParametersAreRefusedAndKnownOnesGetTheirOwnConnection() {
        Context a = tcp.open();
        Context b = tcp.open();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint plain = in(a, b.createEndpoint().register(1, (e, m) -> seen.add(m.getInt())).startpoint());
        Startpoint tuned = plain.copy().parameter("tcp", "sendBuffer", "262144");
        Startpoint wrong = plain.copy().parameter("tcp", "colour", "blue");

        plain.send(1, a.allocateBuffer(4).putInt(1));
        tuned.send(1, a.allocateBuffer(4).putInt(2));
        NoApplicableMethodException e = assertThrows(NoApplicableMethodException.class,
            () -> wrong.send(1, a.allocateBuffer(4).putInt(3)));

        assertTrue(e.getMessage().contains("unknown tcp parameter 'colour'; known: [connectTimeoutMs"), e.getMessage());
        Await.until(() -> seen.size() == 2, Duration.ofSeconds(5), () -> "saw " + seen);
        assertEquals(2, tcp.method(0).connectionCount());
    }

    /**
     * An inline handler holds the I/O thread (it may be dialling a peer that dials back, and wait
     * for that peer's connection): a new peer's handshake is still answered meanwhile.
     */
    @Test
    void aPeerConnectsWhileTheIoThreadIsHeldByAHandler() throws Exception {
        Context a = tcp.open();
        Context b = tcp.open();
        Context c = tcp.open(Map.of("bindAddress", "127.0.0.1", "connectTimeoutMs", "5000"));
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong fromC = new AtomicLong();
        Endpoint target = a.createEndpoint()
            .register(1, (e, m) -> {
                held.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
            })
            .register(2, (e, m) -> fromC.incrementAndGet());
        in(b, target.startpoint()).send(1, b.allocateBuffer(0));
        assertTrue(held.await(10, TimeUnit.SECONDS), "the handler never ran");
        try {
            in(c, target.startpoint()).send(2, c.allocateBuffer(0)); // dials a, and waits for its answer
            assertEquals(2, tcp.method(0).connectionCount(),
                "b's and c's connections, c's accepted while a's I/O thread is held");
        } finally {
            release.countDown();
        }
        Await.until(() -> fromC.get() == 1, Duration.ofSeconds(10), () -> "c's RSR never arrived");
    }

    /**
     * An inline handler holds the I/O thread for three failure timeouts, while the next frame may
     * be half read: neither the peer's silence nor its unfinished frame is the peer's fault.
     */
    @Test
    void aHandlerHoldingTheIoThreadPastTheFailureTimeoutClosesNoLivePeer() throws Exception {
        Map<String, Object> quick = Map.of("bindAddress", "127.0.0.1", "failureTimeoutMs", "300",
            "heartbeatIntervalMs", "100");
        Context a = tcp.open(quick);
        Context b = tcp.open(quick);
        AtomicLong received = new AtomicLong();
        CountDownLatch held = new CountDownLatch(1);
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> {
            if (received.incrementAndGet() == 1) {
                held.countDown();
                try {
                    new CountDownLatch(1).await(900, TimeUnit.MILLISECONDS); // holds the loop, as a slow handler would
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }).startpoint());
        try (LogCapture log = new LogCapture("io.polylink.core")) {
            s.send(1, a.allocateBuffer(0));
            s.send(1, a.allocateBuffer(100_000));
            assertTrue(held.await(10, TimeUnit.SECONDS), "the handler never ran");
            Await.until(() -> received.get() == 2, Duration.ofSeconds(20), () -> "the second RSR never arrived");
            assertEquals(List.of(), log.lines(), "a live peer was closed");
            assertEquals(0, b.statistics().errors());
            assertEquals(0, a.statistics().errors());
        }
    }

    @Test
    void anIdleConnectionCostsLessThanTwoPercentOfACore() throws Exception {
        Context a = tcp.open();
        Context b = tcp.open();
        CountDownLatch arrived = new CountDownLatch(1);
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> arrived.countDown()).startpoint());
        s.send(1, a.allocateBuffer(0));
        assertTrue(arrived.await(10, TimeUnit.SECONDS), "the RSR never arrived");
        List<Thread> threads = Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().startsWith("polylink-tcp")).toList();
        assertEquals(6, threads.size(), "I/O, acceptor and timer threads per context: " + threads);
        new CountDownLatch(1).await(1, TimeUnit.SECONDS); // the "1 s without traffic"
        ThreadCpu used = ThreadCpu.measure(threads, Duration.ofSeconds(2));
        double share = used.share() / 2;
        System.out.printf("idle tcp threads: %.3f%% of a core per context (I/O, acceptor, timer); %s%n",
            100 * share, used.each());
        assertTrue(share < 0.02, share * 100 + "% of a core");
    }
}
