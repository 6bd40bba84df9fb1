package io.polylink.method.tcp.internal;

import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import io.polylink.testkit.ThreadCpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.ContextId;
import io.polylink.Endpoint;
import io.polylink.LinkException;
import io.polylink.MessageBuffer;
import io.polylink.NoApplicableMethodException;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.spi.Connection;
import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
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
import java.util.function.LongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two contexts in one JVM joined by real tcp sockets on 127.0.0.1. */
class TcpLinkTest {

    private static final Map<String, Object> LOOPBACK = Map.of("bindAddress", "127.0.0.1");

    private final List<EmbeddedContext> contexts = new ArrayList<>();
    private final List<TcpMethod> methods = new ArrayList<>();

    private Context context(Map<String, Object> tcp) {
        TcpMethod method = new TcpMethod(tcp);
        EmbeddedContext embedded = EmbeddedContext.open();
        try {
            embedded.add(method, 50);
        } catch (RuntimeException e) {
            embedded.close();
            throw e;
        }
        contexts.add(embedded);
        methods.add(method);
        return embedded.context();
    }

    private Context context() {
        return context(LOOPBACK);
    }

    @AfterEach
    void close() {
        contexts.forEach(EmbeddedContext::close);
        Await.until(() -> Await.threads("polylink-").isEmpty(), Duration.ofSeconds(10),
            () -> "threads left: " + Await.threads("polylink-"));
    }

    private static Startpoint in(Context where, Startpoint s) {
        return where.startpoint(s.toText());
    }

    private static InetSocketAddress listening(Context c) {
        return TcpAddress.decode(c.descriptorTable().entries().stream()
            .filter(d -> d.method().equals("tcp")).findFirst().orElseThrow().address()).get(0);
    }

    @Test
    void aPeerWhoseMethodWasReplacedDialsAgainAtOnceThoughThisSideHasNotReadTheOldConnectionsClose()
            throws Exception {
        Map<String, Object> settings = Map.of("bindAddress", "127.0.0.1", "connectTimeoutMs", "10000");
        Context a = context(settings);
        Context b = context();
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
        EmbeddedContext here = contexts.get(0);
        here.remove(methods.get(0));
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
        Context a = context();
        Context b = context();
        AtomicLong next = new AtomicLong();
        List<String> problems = new CopyOnWriteArrayList<>();
        Endpoint sink = checkedSink(b, next, problems);
        Startpoint s = in(a, sink.startpoint());
        MessageBuffer message = a.allocateBuffer(2048);
        for (long i = 0; i < 100_000; i++) {
            byte[] body = new byte[(int) (i % 1500)];
            java.util.Arrays.fill(body, (byte) i);
            s.send(1, message.clear().putLong(i).putBytes(body).putLong(checksum(i, body)));
        }
        Await.until(() -> next.get() == 100_000, Duration.ofSeconds(30), () -> next.get() + " of 100000 arrived");
        assertEquals(List.of(), problems);
        assertEquals("tcp", s.explain().get(0).chosen().orElseThrow().descriptor().stack());
    }

    @Test
    void framesOfEverySizeClassArriveIntactWhenMixedInOneStream() {
        Context a = context();
        Context b = context();
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
            java.util.Arrays.fill(body, (byte) i);
            body[body.length - 1] = (byte) (i >> 8);
            s.send(1, message.clear().putLong(i).putBytes(body).putLong(checksum(i, body)));
        }
        Await.until(() -> next.get() == count, Duration.ofSeconds(60), () -> next.get() + " of " + count + " arrived");
        assertEquals(List.of(), problems);
    }

    /** Takes a numbered, checksummed stream into {@code next}, noting each RSR out of order or damaged. */
    private static Endpoint checkedSink(Context in, AtomicLong next, List<String> problems) {
        return in.createEndpoint().register(1, (e, m) -> {
            long seq = m.getLong();
            byte[] body = m.getBytes();
            if (seq != next.get() || m.getLong() != checksum(seq, body)) {
                problems.add("at " + next.get() + " got " + seq + " of " + body.length + " bytes");
            }
            next.set(seq + 1);
        });
    }

    private static long checksum(long seq, byte[] body) {
        var crc = new java.util.zip.CRC32C();
        crc.update(body);
        return crc.getValue() ^ seq;
    }

    /**
     * Each side streams large numbered RSRs from its own thread while its inline handler answers
     * every RSR it receives with a small numbered one, over one connection with small socket
     * buffers: the streaming threads finish their frames themselves while the I/O threads queue
     * answers and acknowledgements behind them. All four streams arrive intact and in order.
     */
    @Test
    void largeFramesFinishedBySendersInterleaveWithAnswersQueuedMeanwhile() throws Exception {
        Map<String, Object> small = Map.of("bindAddress", "127.0.0.1", "sendBuffer", "32768", "receiveBuffer", "32768");
        Context a = context(small);
        Context b = context(small);
        List<String> problems = new CopyOnWriteArrayList<>();
        AtomicLong[] next = {new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong()};
        Endpoint atA = a.createEndpoint();
        Endpoint atB = b.createEndpoint();
        Startpoint toB = in(a, atB.startpoint());
        Startpoint toA = in(b, atA.startpoint());
        answering(atA, a, in(a, atB.startpoint()), next[0], next[1], problems);
        answering(atB, b, in(b, atA.startpoint()), next[2], next[3], problems);
        int count = 400;
        ExecutorService streams = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> sending = List.of(
                streams.submit(() -> stream(a, toB, count)), streams.submit(() -> stream(b, toA, count)));
            for (Future<?> f : sending) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            streams.shutdownNow();
        }
        Await.until(() -> Arrays.stream(next).allMatch(n -> n.get() == count), Duration.ofSeconds(30),
            () -> "streamed and answered: " + Arrays.toString(next) + " of " + count + "; " + problems);
        assertEquals(List.of(), problems);
        TcpConnection ab = (TcpConnection) methods.get(0).connect(b.id(), methods.get(1).localAddress(), Map.of());
        TcpConnection ba = (TcpConnection) methods.get(1).connect(a.id(), methods.get(0).localAddress(), Map.of());
        assertTrue(ab.finished() > 0 && ba.finished() > 0,
            "frames finished by their senders: " + ab.finished() + " and " + ba.finished());
        assertEquals(0, methods.get(0).statistics().errors() + methods.get(1).statistics().errors());
    }

    /** Streams RSRs of 20 KiB to 300 KiB, numbered and checksummed, to handler 1. */
    private static Void stream(Context from, Startpoint to, int count) {
        MessageBuffer message = from.allocateBuffer(300_000);
        for (long i = 0; i < count; i++) {
            byte[] body = new byte[20_000 + (int) (i * 7919 % 280_000)];
            Arrays.fill(body, (byte) i);
            body[body.length / 2] = (byte) (i >> 8);
            to.send(1, message.clear().putLong(i).putBytes(body).putLong(checksum(i, body)));
        }
        return null;
    }

    /** Checks the stream on handler 1 into {@code streamed} and answers each RSR, numbered, to handler 2. */
    private static void answering(Endpoint endpoint, Context in, Startpoint back, AtomicLong streamed,
                                  AtomicLong answered, List<String> problems) {
        MessageBuffer answer = in.allocateBuffer(64);
        endpoint.register(1, (e, m) -> {
            long seq = m.getLong();
            byte[] body = m.getBytes();
            if (seq != streamed.get() || m.getLong() != checksum(seq, body)) {
                problems.add(in.id() + " at " + streamed.get() + " got " + seq + " of " + body.length + " bytes");
            }
            streamed.set(seq + 1);
            back.send(2, answer.clear().putLong(seq));
        }).register(2, (e, m) -> {
            long seq = m.getLong();
            if (seq != answered.get()) {
                problems.add(in.id() + " expected answer " + answered.get() + ", got " + seq);
            }
            answered.set(seq + 1);
        });
    }

    /**
     * Counts are kept without atomic adds: by whoever holds the send lock, and by the I/O thread.
     * Senders on four threads, some frames queued behind a full socket: each side's sent counts
     * must end equal to the other's received counts, and cover every RSR.
     */
    @Test
    void everyFrameAndByteIsCountedOnceWithSendersOnSeveralThreads() throws Exception {
        Context a = context();
        Context b = context();
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
        TcpMethod ofA = methods.get(0);
        TcpMethod ofB = methods.get(1);
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
        Context a = context(quick);
        Context b = context(quick);
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
        assertEquals(1, methods.get(0).connectionCount(), "the connection was never replaced");
    }

    @Test
    void heartbeatsFollowTheLinksIntervalNotOnlyTheMethodsDefault() throws Exception {
        // Alone, b would look at its connections every 100 ms: five times the interval this link asks for.
        Context b = context(Map.of("bindAddress", "127.0.0.1", "heartbeatIntervalMs", "500", "failureTimeoutMs", "2000"));
        try (Socket raw = new Socket()) {
            raw.connect(listening(b), 2000);
            raw.setSoTimeout(5000);
            raw.getOutputStream().write(Handshake.hello(ContextId.random(), b.id(), 0, 20, 1000).array());
            DataInputStream in = new DataInputStream(raw.getInputStream());
            ByteBuffer welcome = ByteBuffer.wrap(in.readNBytes(Handshake.WELCOME_LENGTH));
            assertEquals(Handshake.Status.ACCEPTED, Handshake.readWelcome(welcome, 0).status());
            long[] gaps = new long[25];
            long last = System.nanoTime();
            for (int i = 0; i < gaps.length; i++) {
                assertEquals(0, in.readInt(), "an idle connection sends only heartbeats");
                raw.getOutputStream().write(new byte[4]); // one back, so b hears this side is alive
                long now = System.nanoTime();
                gaps[i] = now - last;
                last = now;
            }
            Arrays.sort(gaps);
            long median = TimeUnit.NANOSECONDS.toMillis(gaps[gaps.length / 2]);
            assertTrue(median < 50, "heartbeats every " + median + " ms for a link that asked for 20 ms");
        }
    }

    @Test
    void bothSidesDiallingAtOnceEndWithOneConnection() throws Exception {
        for (int round = 0; round < 20; round++) {
            Context a = context();
            Context b = context();
            TcpMethod ta = methods.get(methods.size() - 2);
            TcpMethod tb = methods.get(methods.size() - 1);
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
        Context a = context();
        Context b = context();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint s = linked(a, b, seen);

        contexts.get(1).close();
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

        Context c = context();
        List<Integer> atC = new CopyOnWriteArrayList<>();
        Startpoint toC = in(a, c.createEndpoint().register(1, (x, m) -> atC.add(m.getInt())).startpoint());
        toC.send(1, a.allocateBuffer(4).putInt(4));
        Await.until(() -> atC.contains(4), Duration.ofSeconds(5), () -> "a cannot reach a new peer");
    }

    @Test
    void contextsListeningOnTheIpv6LoopbackReachEachOther() {
        Map<String, Object> v6 = Map.of("bindAddress", "::1");
        Context a = context(v6);
        Context b = context(v6);
        assertEquals(List.of(new InetSocketAddress("::1", listening(b).getPort())),
            TcpAddress.decode(methods.get(1).localAddress()), "b's descriptor");
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint s = linked(a, b, seen);
        assertTrue(s.explain().toString().contains("tcp chosen (reachable at [::1]:"), s.explain().toString());
    }

    @Test
    void aPeerThatClosesInOrderIsNotReportedAsALostConnection() {
        linked(context(), context(), new CopyOnWriteArrayList<>());
        TcpMethod atA = methods.get(0);
        try (LogCapture core = new LogCapture("io.polylink.core");
             LogCapture tcp = new LogCapture("io.polylink.method.tcp")) {
            contexts.get(1).close();
            Await.until(() -> atA.connectionCount() == 0, Duration.ofSeconds(5),
                () -> "a still holds its connection to b, which closed");
            assertEquals(List.of(), core.lines(), "a's core on b's orderly shutdown");
            assertEquals(List.of(), tcp.lines(), "a's tcp method on b's orderly shutdown");
        }
    }

    /** Each by name: under one rate limit for all, the second of two peers lost within a second went unnamed. */
    @Test
    void peersThatDropTheSocketWithoutAGoodbyeAreEachReportedAsLost() throws Exception {
        Context b = context();
        try (LogCapture core = new LogCapture("io.polylink.core")) {
            handshaken(b).close();
            handshaken(b).close();
            Await.until(() -> core.lines().stream().filter(l -> l.contains("closed: peer closed the connection")).count() == 2,
                Duration.ofSeconds(5), () -> "b's core did not name both peers that vanished: " + core.lines());
        }
    }

    @Test
    void anHttpRequestToThePortIsRefusedWithOneLineAndOtherLinksKeepWorking() throws Exception {
        Context a = context();
        Context b = context();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint s = linked(a, b, seen);
        int threadsBefore = Await.threads("polylink-").size();

        try (LogCapture log = new LogCapture("io.polylink.method.tcp");
             Socket http = new Socket()) {
            http.connect(listening(b), 2000);
            http.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
            http.setSoTimeout(5000);
            assertClosedByPeer(http);
            Await.until(() -> !log.lines().isEmpty(), Duration.ofSeconds(5), () -> "no log line");
            assertEquals(1, log.lines().size(), log.lines()::toString);
            assertTrue(log.lines().get(0).matches("refused tcp connection from /127\\.0\\.0\\.1:\\d+: "
                + "not a Polylink peer: it began with 'GET '"), log.lines().get(0));
        }
        s.send(1, a.allocateBuffer(4).putInt(2));
        Await.until(() -> seen.contains(2), Duration.ofSeconds(5), () -> "healthy link broke");
        assertEquals(threadsBefore, Await.threads("polylink-").size());
    }

    @Test
    void aFrameLongerThanTheMaximumAfterAValidHandshakeClosesThatConnectionOnly() throws Exception {
        Context b = context();
        Context a = context();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> seen.add(m.getInt())).startpoint());
        try (LogCapture core = new LogCapture("io.polylink.core");
             LogCapture tcp = new LogCapture("io.polylink.method.tcp");
             Socket raw = handshaken(b)) {
            raw.getOutputStream().write(ByteBuffer.allocate(8).putInt(Integer.MAX_VALUE).putInt(0).array());
            assertClosedByPeer(raw);
            Await.until(() -> !core.lines().isEmpty(), Duration.ofSeconds(5), () -> "no log line");
            assertOneLine(core, tcp, "tcp connection to .* at 127\\.0\\.0\\.1:\\d+ closed: frame length 2147483647 "
                + "exceeds the maximum of \\d+ \\(not Polylink framing, or a corrupt stream\\)");
        }
        s.send(1, a.allocateBuffer(4).putInt(7));
        Await.until(() -> seen.contains(7), Duration.ofSeconds(5), () -> "healthy link broke");
    }

    @Test
    void garbageFramesAreRefusedByTheCoreAndTheConnectionClosed() throws Exception {
        Context b = context();
        try (LogCapture core = new LogCapture("io.polylink.core");
             LogCapture tcp = new LogCapture("io.polylink.method.tcp");
             Socket raw = handshaken(b)) {
            raw.getOutputStream().write(ByteBuffer.allocate(20).putInt(16).put(new byte[16]).array());
            assertClosedByPeer(raw);
            Await.until(() -> b.statistics().errors() == 1, Duration.ofSeconds(5), () -> "the frame was not refused");
            assertOneLine(core, tcp, "closing tcp connection to .* at 127\\.0\\.0\\.1:\\d+: frame of protocol "
                + "version 0, this context speaks 1; upgrade the older side");
        }
    }

    @Test
    void aClientSendingOneBytePerSecondIsClosedWithinTheConnectTimeout() throws Exception {
        Context b = context(Map.of("bindAddress", "127.0.0.1", "connectTimeoutMs", "500", "heartbeatIntervalMs", "100"));
        try (LogCapture log = new LogCapture("io.polylink.method.tcp");
             Socket slow = new Socket()) {
            slow.connect(listening(b), 2000);
            slow.setSoTimeout(5000);
            slow.getOutputStream().write('P');
            long start = System.nanoTime();
            assertClosedByPeer(slow);
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(ms < 3000, ms + " ms");
            Await.until(() -> !log.lines().isEmpty(), Duration.ofSeconds(5), () -> "no log line");
            assertTrue(log.lines().get(0).endsWith("handshake not completed within 500 ms"), log.lines().get(0));
        }
    }

    @Test
    void aHandshakeOfAnotherVersionIsRefusedClearly() throws Exception {
        Context b = context();
        try (Socket raw = new Socket()) {
            raw.connect(listening(b), 2000);
            raw.setSoTimeout(5000);
            ByteBuffer hello = Handshake.hello(io.polylink.ContextId.random(), b.id(), 0, 250, 1000);
            hello.put(4, (byte) 9);
            raw.getOutputStream().write(hello.array());
            byte[] answer = raw.getInputStream().readNBytes(Handshake.WELCOME_LENGTH);
            assertEquals(Handshake.Status.BAD_VERSION, Handshake.readWelcome(ByteBuffer.wrap(answer), 0).status());
        }
    }

    @Test
    void aStartpointToARestartedContextIsRefusedAsBelongingToAnother() {
        Context a = context();
        Context b = context(Map.of("bindAddress", "127.0.0.1"));
        Startpoint s = in(a, b.createEndpoint().startpoint());
        int port = listening(b).getPort();
        contexts.get(1).close();
        // The kernel frees the port a moment after the listener closes; retry, bounded.
        java.util.concurrent.atomic.AtomicReference<Context> rebound = new java.util.concurrent.atomic.AtomicReference<>();
        Await.until(() -> {
            try {
                rebound.set(context(Map.of("bindAddress", "127.0.0.1", "port", port)));
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
    void aStalledReceiverMakesTheSenderWaitThenFailWithoutGrowingItsQueue() throws Exception {
        Context a = context(Map.of("bindAddress", "127.0.0.1", "queueLimit", "65536", "sendTimeoutMs", "200"));
        Context b = context();
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong received = new AtomicLong();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> {
            if (received.incrementAndGet() == 1) {
                release.await(30, TimeUnit.SECONDS);
            }
        }).startpoint());
        MessageBuffer big = a.allocateBuffer(8192).putRaw(new byte[8192], 0, 8192);
        long sent;
        try {
            sent = sendUntilRefused(s, 100_000, i -> big);
            TcpConnection connection = queuedAtMost(b, 65536 + 8192 + 16);
            long queued = connection.statistics().queuedBytes();
            assertEquals(queued, methods.get(0).statistics().queuedBytes(), "the method's queue depth");
            ByteBuffer header = ByteBuffer.allocate(16);
            ByteBuffer payload = ByteBuffer.allocate(8192);
            assertFalse(connection.trySend(header, payload), "a send that would wait is declined");
            assertEquals(16, header.remaining(), "a declined frame's header is not consumed");
            assertEquals(8192, payload.remaining(), "a declined frame's payload is not consumed");
            assertEquals(queued, connection.statistics().queuedBytes(), "a declined frame is not queued");
            assertTrue(connection.isOpen(), "backpressure does not break the link");
        } finally {
            release.countDown();
        }
        long expected = sent - 1;
        Await.until(() -> received.get() == expected, Duration.ofSeconds(30),
            () -> received.get() + " of " + expected + " accepted RSRs arrived");
        Await.until(() -> methods.get(0).statistics().queuedBytes() == 0, Duration.ofSeconds(5),
            () -> methods.get(0).statistics().queuedBytes() + " bytes still queued after all arrived");
    }

    /**
     * A sender finishing a large frame to a stalled receiver stops waiting once the socket takes
     * nothing for the send timeout: the rest goes to the front of the queue, the next send meets
     * the queue's bound, and everything accepted arrives intact once the receiver goes on.
     */
    @Test
    void aStalledReceiverOfLargeFramesMakesTheSenderQueueTheRestThenFail() throws Exception {
        Context a = context(Map.of("bindAddress", "127.0.0.1", "queueLimit", "65536", "sendTimeoutMs", "200"));
        Context b = context();
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong next = new AtomicLong();
        List<String> problems = new CopyOnWriteArrayList<>();
        Endpoint sink = checkedSink(b, next, problems);
        sink.register(2, (e, m) -> release.await(30, TimeUnit.SECONDS));
        Startpoint s = in(a, sink.startpoint());
        s.send(2, a.allocateBuffer(0));
        MessageBuffer message = a.allocateBuffer(1 << 20);
        long sent;
        try {
            sent = sendUntilRefused(s, 1000, i -> {
                byte[] body = new byte[1 << 20];
                Arrays.fill(body, (byte) i);
                return message.clear().putLong(i).putBytes(body).putLong(checksum(i, body));
            });
            TcpConnection connection = queuedAtMost(b, 65536 + (1 << 20) + 64);
            assertTrue(connection.finished() > 0, "no sender finished a frame");
            assertTrue(connection.isOpen(), "backpressure does not break the link");
        } finally {
            release.countDown();
        }
        long expected = sent - 1;
        Await.until(() -> next.get() == expected, Duration.ofSeconds(30),
            () -> next.get() + " of " + expected + " accepted RSRs arrived; " + problems);
        assertEquals(List.of(), problems);
    }

    /**
     * Sends to handler 1 what {@code next} makes of 0, 1, ... until a send is refused for a full
     * queue (with a 200 ms send timeout).
     *
     * @return the sends made, the refused one included
     */
    private static long sendUntilRefused(Startpoint s, int atMost, LongFunction<MessageBuffer> next) {
        for (long sent = 1; sent <= atMost; sent++) {
            try {
                s.send(1, next.apply(sent - 1));
            } catch (LinkException e) {
                assertTrue(e.getMessage().contains("is full") && e.getMessage().contains("for 200 ms"), e.getMessage());
                return sent;
            }
        }
        throw new AssertionError("a stalled receiver never pushed back in " + atMost + " sends");
    }

    /** @return the first context's connection to {@code to}, having checked it queues some bytes, at most {@code bound} */
    private TcpConnection queuedAtMost(Context to, long bound) {
        TcpConnection connection = (TcpConnection) methods.get(0).connect(to.id(), methods.get(1).localAddress(), Map.of());
        long queued = connection.statistics().queuedBytes();
        assertTrue(queued > 0 && queued <= bound, queued + " bytes queued");
        return connection;
    }

    @Test
    void unknownLinkParametersAreRefusedAndKnownOnesGetTheirOwnConnection() {
        Context a = context();
        Context b = context();
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
        assertEquals(2, methods.get(0).connectionCount());
    }

    /**
     * An inline handler holds the I/O thread (it may be dialling a peer that dials back, and wait
     * for that peer's connection): a new peer's handshake is still answered meanwhile.
     */
    @Test
    void aPeerConnectsWhileTheIoThreadIsHeldByAHandler() throws Exception {
        Context a = context();
        Context b = context();
        Context c = context(Map.of("bindAddress", "127.0.0.1", "connectTimeoutMs", "5000"));
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
            assertEquals(2, methods.get(0).connectionCount(),
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
        Context a = context(quick);
        Context b = context(quick);
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
    void aConnectionGivesBackTheBuffersALargeFrameGrewOnceIdle() throws Exception {
        Context a = context();
        Context b = context();
        AtomicLong received = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> {
            bytes.addAndGet(m.length());
            received.incrementAndGet();
        }).startpoint());
        s.send(1, a.allocateBuffer(16).putRaw(new byte[16], 0, 16));
        Await.until(() -> received.get() == 1, Duration.ofSeconds(10), () -> "the first RSR never arrived");
        TcpConnection sending = (TcpConnection) methods.get(0).connect(b.id(), methods.get(1).localAddress(), Map.of());
        TcpConnection receiving = (TcpConnection) methods.get(1).connect(a.id(), methods.get(0).localAddress(), Map.of());
        assertEquals(4096, receiving.readCapacity(), "a connection that carried one small RSR reads into 4 KiB");

        s.send(1, a.allocateBuffer(60_000).putRaw(new byte[60_000], 0, 60_000));
        Await.until(() -> received.get() == 2, Duration.ofSeconds(10), () -> "the 60 kB RSR never arrived");
        assertEquals(1024, sending.stagingCapacity(), "a 60 kB RSR goes out from the flow's direct copy, unstaged");
        assertTrue(receiving.readCapacity() > 60_000, receiving.readCapacity() + " bytes read a 60 kB frame");
        s.send(1, a.allocateBuffer(10_000).putRaw(new byte[10_000], 0, 10_000));
        Await.until(() -> received.get() == 3, Duration.ofSeconds(10), () -> "the 10 kB RSR never arrived");
        assertTrue(sending.stagingCapacity() > 10_000, sending.stagingCapacity() + " bytes staged a 10 kB frame");
        Await.until(() -> sending.stagingCapacity() == 1024 && receiving.readCapacity() == 4096,
            Duration.ofSeconds(10), () -> "an idle connection still holds " + sending.stagingCapacity()
                + " bytes for staging and " + receiving.readCapacity() + " for reading");

        s.send(1, a.allocateBuffer(16).putRaw(new byte[16], 0, 16));
        s.send(1, a.allocateBuffer(60_000).putRaw(new byte[60_000], 0, 60_000));
        Await.until(() -> received.get() == 5, Duration.ofSeconds(10), () -> "the RSRs after the shrink never arrived");
        assertEquals(16 + 60_000 + 10_000 + 16 + 60_000, bytes.get());
    }

    @Test
    void theSenderOfAStreamOfLargeRsrsSendsInBulkUntilAConversation() {
        Context a = context();
        Context b = context();
        AtomicLong received = new AtomicLong();
        Endpoint sink = b.createEndpoint().register(1, (e, m) -> received.incrementAndGet());
        Endpoint replies = a.createEndpoint().register(1, (e, m) -> received.incrementAndGet());
        Startpoint back = replies.startpoint();
        sink.register(2, (e, m) -> b.startpoint(back.toText()).send(1, b.allocateBuffer(16).putRaw(new byte[16], 0, 16)));
        Startpoint s = in(a, sink.startpoint());
        s.send(1, a.allocateBuffer(16).putRaw(new byte[16], 0, 16));
        Await.until(() -> received.get() == 1, Duration.ofSeconds(10), () -> "the first RSR never arrived");
        TcpConnection sending = (TcpConnection) methods.get(0).connect(b.id(), methods.get(1).localAddress(), Map.of());
        TcpConnection receiving = (TcpConnection) methods.get(1).connect(a.id(), methods.get(0).localAddress(), Map.of());

        // The core asks for an acknowledgement every fourth 1 MiB RSR: the sender reads one per 4 MiB sent.
        int mebibyte = 1 << 20;
        MessageBuffer large = a.allocateBuffer(mebibyte).putRaw(new byte[mebibyte], 0, mebibyte);
        int sent = 0;
        while (sent < 64 && !sending.sendsInBulk()) {
            s.send(1, large);
            sent++;
        }
        assertTrue(sending.sendsInBulk(), "the sender of " + sent + " RSRs of 1 MiB never counted as sending in bulk");
        long streamed = 1 + sent;
        Await.until(() -> received.get() == streamed, Duration.ofSeconds(10),
            () -> received.get() + " of " + streamed + " RSRs arrived");
        assertFalse(receiving.sendsInBulk(), "the receiving end, which sent only acknowledgements, sends in bulk");

        // A read may still cover the stream's last bytes; the next request and reply cannot.
        for (int exchange = 1; exchange <= 2; exchange++) {
            long before = received.get();
            s.send(2, a.allocateBuffer(16).putRaw(new byte[16], 0, 16));
            Await.until(() -> received.get() == before + 1, Duration.ofSeconds(10), () -> "a request or its reply was lost");
        }
        assertFalse(sending.sendsInBulk(), "after requests and replies the sender still counts as sending in bulk");
    }

    /**
     * The sending end of a bulk stream reads its own socket between writes when the I/O thread
     * found it busy: the core takes the acknowledgements there, and the replies that come
     * meanwhile go back to the I/O thread and arrive in order; their inline handler sends on the
     * same connection as the streaming thread. Streams until both happened. Each send is told the
     * loop wants the sender to read ({@link TcpConnection#wantReadAside}): since a sender finishes
     * its own large frames, holding the read lock only while it writes, a stream met the moment
     * the loop found the lock held too seldom to be sure of it. A request goes every 64th RSR
     * (4 MiB), so the loop reading a reply still finds 2 MiB or more sent between its reads.
     */
    @Test
    void theSenderOfABulkStreamReadsItsAcknowledgementsAndHandsTheRestBack() {
        Context a = context();
        Context b = context();
        AtomicLong nextReply = new AtomicLong();
        List<String> problems = new CopyOnWriteArrayList<>();
        AtomicLong next = new AtomicLong();
        Endpoint sink = checkedSink(b, next, problems);
        AtomicLong thanked = new AtomicLong();
        sink.register(3, (e, m) -> thanked.incrementAndGet());
        Startpoint s = in(a, sink.startpoint());
        Startpoint back = a.createEndpoint().register(1, (e, m) -> {
            long seq = m.getLong();
            if (seq != nextReply.get()) {
                problems.add("reply " + seq + " came when " + nextReply.get() + " was due");
            }
            nextReply.set(seq + 1);
            s.send(3, a.allocateBuffer(8).putLong(seq));
        }).startpoint();
        sink.register(2, (e, m) -> b.startpoint(back.toText()).send(1, b.allocateBuffer(8).putLong(m.getLong())));
        s.send(2, a.allocateBuffer(8).putLong(0));
        Await.until(() -> nextReply.get() == 1, Duration.ofSeconds(10), () -> "the first reply never came");
        TcpConnection sending = (TcpConnection) methods.get(0).connect(b.id(), methods.get(1).localAddress(), Map.of());

        byte[] body = new byte[64 * 1024 - 16];
        MessageBuffer large = a.allocateBuffer(64 * 1024);
        long sent = 0;
        long requests = 1;
        while (sent < 16_384 && (sending.takenAside() == 0 || sending.handBacks() == 0)) {
            body[0] = (byte) sent;
            sending.wantReadAside();
            s.send(1, large.clear().putLong(sent).putBytes(body).putLong(checksum(sent, body)));
            if (++sent % 64 == 0) {
                s.send(2, a.allocateBuffer(8).putLong(requests++));
            }
        }
        long streamed = sent;
        long replies = requests;
        Await.until(() -> next.get() == streamed && nextReply.get() == replies && thanked.get() == replies,
            Duration.ofSeconds(30), () -> next.get() + " of " + streamed + " RSRs, " + nextReply.get() + " of " + replies
                + " replies and " + thanked.get() + " answers to them arrived");
        assertEquals(List.of(), problems);
        assertTrue(sending.takenAside() > 0 && sending.handBacks() > 0, "in " + streamed + " RSRs of 64 KiB the sender took "
            + sending.takenAside() + " frames aside and handed back " + sending.handBacks() + " times");
        TcpMethod ofA = methods.get(0);
        TcpMethod ofB = methods.get(1);
        Await.until(() -> ofA.statistics().messagesReceived() == ofB.statistics().messagesSent()
                && ofA.statistics().bytesReceived() == ofB.statistics().bytesSent(),
            Duration.ofSeconds(10), () -> "a: " + ofA.statistics() + ", b: " + ofB.statistics());
        assertEquals(0, ofA.statistics().errors() + ofB.statistics().errors());
    }

    /**
     * While a sender holds the read lock, the I/O thread takes reads off the socket's key rather
     * than be woken by it again and again until the sender reads, and sleeps; letting go of the
     * lock gives reads back and wakes it, so what came meanwhile is read.
     */
    @Test
    void theLoopLeavesTheSocketToASenderHoldingItsReadsAndReadsAgainWhenItLetsGo() {
        Context a = context();
        Context b = context();
        AtomicLong replies = new AtomicLong();
        Startpoint back = a.createEndpoint().register(1, (e, m) -> replies.incrementAndGet()).startpoint();
        Startpoint fromB = b.startpoint(back.toText());
        Endpoint sink = b.createEndpoint().register(2, (e, m) -> fromB.send(1, b.allocateBuffer(16).putLong(1)));
        in(a, sink.startpoint()).send(2, a.allocateBuffer(16).putLong(0));
        Await.until(() -> replies.get() == 1, Duration.ofSeconds(10), () -> "the first reply never came");
        TcpConnection sending = (TcpConnection) methods.get(0).connect(b.id(), methods.get(1).localAddress(), Map.of());
        IoLoop loop = methods.get(0).loop();

        sending.holdingReads(() -> {
            fromB.send(1, b.allocateBuffer(16).putLong(2));
            Await.until(() -> sending.readsParked() && loop.asleep(), Duration.ofSeconds(10),
                () -> "the I/O thread, finding the reads held " + sending.readsFoundHeld() + " times, never left them and slept");
            fromB.send(1, b.allocateBuffer(16).putLong(3)); // to a key that no longer wakes the loop
        });
        Await.until(() -> replies.get() == 3, Duration.ofSeconds(10),
            () -> replies.get() - 1 + " of the 2 RSRs that came while a sender held the reads were read");
        assertFalse(sending.readsParked(), "reads are still parked after the sender let go");
    }

    /**
     * The I/O thread reading a conversation's channel directly stops the selector watching it,
     * and has it watched again before it sleeps, so what comes after the conversation is read.
     */
    @Test
    void aConversationsChannelGoesUnwatchedWhileReadDirectlyAndIsWatchedAgainBeforeTheLoopSleeps() {
        Context a = context();
        Context b = context();
        int exchanges = 200;
        AtomicLong replies = new AtomicLong();
        Startpoint[] toB = new Startpoint[1];
        Startpoint back = a.createEndpoint().register(1, (e, m) -> {
            long n = replies.incrementAndGet();
            if (n < exchanges) {
                toB[0].send(2, a.allocateBuffer(16).putLong(n));
            }
        }).startpoint();
        Startpoint fromB = b.startpoint(back.toText());
        toB[0] = in(a, b.createEndpoint().register(2, (e, m) -> fromB.send(1, b.allocateBuffer(16).putLong(m.getLong())))
            .startpoint());
        toB[0].send(2, a.allocateBuffer(16).putLong(0));
        Await.until(() -> replies.get() == exchanges, Duration.ofSeconds(10),
            () -> replies.get() + " of " + exchanges + " replies came");
        IoLoop loopA = methods.get(0).loop();
        IoLoop loopB = methods.get(1).loop();
        assertTrue(loopA.unwatched() > 0 && loopB.unwatched() > 0, "in " + exchanges + " request-reply exchanges the I/O threads"
            + " stopped the selector watching the conversation " + loopA.unwatched() + " and " + loopB.unwatched() + " times");

        Await.until(() -> loopA.asleep() && loopA.watchesHot(), Duration.ofSeconds(10),
            () -> "a's I/O thread never slept with the conversation's channel watched");
        fromB.send(1, b.allocateBuffer(16).putLong(-1));
        Await.until(() -> replies.get() == exchanges + 1, Duration.ofSeconds(10),
            () -> "the RSR sent to a sleeping I/O thread after the conversation never arrived");
    }

    @Test
    void anIdleConnectionCostsLessThanTwoPercentOfACore() throws Exception {
        Context a = context();
        Context b = context();
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

    /** @return a startpoint in {@code a} to a sink in {@code b} that keeps each RSR's int, proven by RSR 1 */
    private static Startpoint linked(Context a, Context b, List<Integer> seen) {
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> seen.add(m.getInt())).startpoint());
        s.send(1, a.allocateBuffer(4).putInt(1));
        Await.until(() -> seen.contains(1), Duration.ofSeconds(5), () -> "first RSR lost");
        return s;
    }

    /**
     * One bad input, one line, whichever of the core and the method found it: each once logged it,
     * and the core then logged the close the method made because of it a second time.
     */
    private static void assertOneLine(LogCapture core, LogCapture tcp, String pattern) {
        List<String> lines = new ArrayList<>(core.lines());
        lines.addAll(tcp.lines());
        assertEquals(1, lines.size(), () -> "log lines: " + lines);
        assertTrue(lines.get(0).matches(pattern), lines.get(0) + "\ndoes not match\n" + pattern);
    }

    /** Reads until the peer closes (heartbeats may come first); fails on a read timeout. */
    private static void assertClosedByPeer(Socket socket) throws Exception {
        InputStream in = socket.getInputStream();
        try {
            while (in.read() >= 0) {
                // heartbeats and the like, until the close
            }
        } catch (java.net.SocketException reset) {
            // a reset is a close too
        }
    }

    /** A raw socket that has completed the handshake with {@code b}, as a peer context would. */
    private Socket handshaken(Context b) throws Exception {
        Socket raw = new Socket();
        raw.connect(listening(b), 2000);
        raw.setSoTimeout(5000);
        OutputStream out = raw.getOutputStream();
        out.write(Handshake.hello(io.polylink.ContextId.random(), b.id(), 0, 250, 1000).array());
        InputStream in = raw.getInputStream();
        byte[] answer = in.readNBytes(Handshake.WELCOME_LENGTH);
        assertEquals(Handshake.Status.ACCEPTED, Handshake.readWelcome(ByteBuffer.wrap(answer), 0).status());
        return raw;
    }
}
