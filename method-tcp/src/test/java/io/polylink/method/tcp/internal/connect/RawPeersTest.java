package io.polylink.method.tcp.internal.connect;

import static io.polylink.method.tcp.internal.TcpContexts.in;
import static io.polylink.method.tcp.internal.TcpContexts.linked;
import static io.polylink.method.tcp.internal.TcpContexts.listening;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.ContextId;
import io.polylink.Startpoint;
import io.polylink.method.tcp.internal.TcpContexts;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import java.io.DataInputStream;
import java.io.InputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A context's tcp method facing raw sockets: strangers, slow or foreign handshakes, and peers that
 * complete the handshake and then break the framing or vanish. Each is refused or closed with one
 * clear line, and the context keeps serving everyone else.
 */
class RawPeersTest {

    private final TcpContexts tcp = new TcpContexts();

    @AfterEach
    void close() {
        tcp.close();
    }

    @Test
    void heartbeatsFollowTheLinksIntervalNotOnlyTheMethodsDefault() throws Exception {
        // Alone, b would heartbeat every 500 ms: eight times the interval this link asks for.
        Context b = tcp.open(Map.of("bindAddress", "127.0.0.1", "heartbeatIntervalMs", "500", "failureTimeoutMs", "2000"));
        try (Socket raw = RawPeer.connect(listening(b))) {
            Handshake.Welcome welcome = RawPeer.dial(raw, ContextId.random(), b.id(), 60, 1000, null);
            assertEquals(Handshake.Status.ACCEPTED, welcome.status());
            assertEquals(60, welcome.heartbeatMs(), "the interval the link asked for, above b's floor");
            assertEquals(1000, welcome.failureMs(), "the failure timeout the link asked for, below b's own");
            DataInputStream in = new DataInputStream(raw.getInputStream());
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
            assertTrue(median < 120, "heartbeats every " + median + " ms for a link that asked for 60 ms");
        }
    }

    /** Each by name: under one rate limit for all, the second of two peers lost within a second went unnamed. */
    @Test
    void peersThatDropTheSocketWithoutAGoodbyeAreEachReportedAsLost() throws Exception {
        Context b = tcp.open();
        try (LogCapture core = new LogCapture("io.polylink.core")) {
            handshaken(b).close();
            handshaken(b).close();
            Await.until(() -> core.lines().stream().filter(l -> l.contains("closed: peer closed the connection")).count() == 2,
                Duration.ofSeconds(5), () -> "b's core did not name both peers that vanished: " + core.lines());
        }
    }

    @Test
    void anHttpRequestToThePortIsRefusedWithOneLineAndOtherLinksKeepWorking() throws Exception {
        Context a = tcp.open();
        Context b = tcp.open();
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
        Context b = tcp.open();
        Context a = tcp.open();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> seen.add(m.getInt())).startpoint());
        try (LogCapture core = new LogCapture("io.polylink.core");
             LogCapture tcpLog = new LogCapture("io.polylink.method.tcp");
             Socket raw = handshaken(b)) {
            raw.getOutputStream().write(ByteBuffer.allocate(8).putInt(Integer.MAX_VALUE).putInt(0).array());
            assertClosedByPeer(raw);
            Await.until(() -> !core.lines().isEmpty(), Duration.ofSeconds(5), () -> "no log line");
            assertOneLine(core, tcpLog, "tcp connection to .* at 127\\.0\\.0\\.1:\\d+ closed: frame length 2147483647 "
                + "exceeds the maximum of \\d+ \\(not Polylink framing, or a corrupt stream\\)");
        }
        s.send(1, a.allocateBuffer(4).putInt(7));
        Await.until(() -> seen.contains(7), Duration.ofSeconds(5), () -> "healthy link broke");
    }

    @Test
    void garbageFramesAreRefusedByTheCoreAndTheConnectionClosed() throws Exception {
        Context b = tcp.open();
        try (LogCapture core = new LogCapture("io.polylink.core");
             LogCapture tcpLog = new LogCapture("io.polylink.method.tcp");
             Socket raw = handshaken(b)) {
            raw.getOutputStream().write(ByteBuffer.allocate(20).putInt(16).put(new byte[16]).array());
            assertClosedByPeer(raw);
            Await.until(() -> b.statistics().errors() == 1, Duration.ofSeconds(5), () -> "the frame was not refused");
            assertOneLine(core, tcpLog, "closing tcp connection to .* at 127\\.0\\.0\\.1:\\d+: frame of protocol "
                + "version 0, this context speaks 1; upgrade the older side");
        }
    }

    @Test
    void aClientSendingOneBytePerSecondIsClosedWithinTheConnectTimeout() throws Exception {
        Context b = tcp.open(Map.of("bindAddress", "127.0.0.1", "connectTimeoutMs", "500", "heartbeatIntervalMs", "100"));
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
        Context b = tcp.open();
        try (Socket raw = RawPeer.connect(listening(b))) {
            ByteBuffer hello = RawPeer.hello(ContextId.random(), b.id(), 250, 1000, null);
            hello.put(4, (byte) 9);
            raw.getOutputStream().write(hello.array());
            assertEquals(Handshake.Status.BAD_VERSION, RawPeer.welcome(raw).status());
        }
    }

    /**
     * One bad input, one line, whichever of the core and the method found it: each once logged it,
     * and the core then logged the close the method made because of it a second time.
     */
    private static void assertOneLine(LogCapture core, LogCapture tcpLog, String pattern) {
        List<String> lines = new ArrayList<>(core.lines());
        lines.addAll(tcpLog.lines());
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
        return RawPeer.handshaken(listening(b), ContextId.random(), b.id());
    }
}
