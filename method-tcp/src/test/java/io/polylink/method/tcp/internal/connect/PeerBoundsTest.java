package io.polylink.method.tcp.internal.connect;

import static io.polylink.method.tcp.internal.TcpContexts.linked;
import static io.polylink.method.tcp.internal.TcpContexts.listening;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.ContextId;
import io.polylink.Startpoint;
import io.polylink.method.tcp.internal.TcpContexts;
import io.polylink.spi.Connection;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a peer can make a context hold is bounded by the context, not by the peer: the timers of a
 * connection, and the handshakes and connections one address may have. Each bad input gets its
 * line, the context serves a healthy link after it, and nothing is left behind.
 */
class PeerBoundsTest {

    private final TcpContexts tcp = new TcpContexts();
    private final List<Socket> sockets = new ArrayList<>();

    @AfterEach
    void close() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        tcp.close();
    }

    /**
     * A hello asking for a heartbeat every millisecond and a failure timeout of 2^31 - 1 ms gets
     * the acceptor's floor and its own timeout: about 20 heartbeats a second, and the silent
     * connection closed after a second, not some 25 days.
     */
    @Test
    void aHelloAskingForExtremeTimersGetsTheAcceptorsBounds() throws Exception {
        Context b = tcp.open();
        Context a = tcp.open();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint healthy = linked(a, b, seen);
        int connections = tcp.method(0).connectionCount();
        try (Socket raw = RawPeer.connect(listening(b))) {
            Handshake.Welcome welcome = RawPeer.dial(raw, ContextId.random(), b.id(), 1, Integer.MAX_VALUE, null);
            assertEquals(Handshake.Status.ACCEPTED, welcome.status());
            assertEquals(50, welcome.heartbeatMs(), "the floor, not the 1 ms asked for");
            assertEquals(1000, welcome.failureMs(), "the acceptor's own timeout, not the 2^31 - 1 ms asked for");
            long start = System.nanoTime();
            int beats = RawPeer.heartbeatsUntilClosed(raw);
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(ms >= 900 && ms < 5000, "a peer silent for the 1 s timeout was closed after " + ms + " ms");
            assertTrue(beats <= ms / 40, beats + " heartbeats in " + ms + " ms for a connection at the 50 ms floor");
        }
        healthy.send(1, a.allocateBuffer(4).putInt(2));
        Await.until(() -> seen.contains(2), Duration.ofSeconds(5), () -> "the healthy link broke");
        Await.until(() -> tcp.method(0).connectionCount() == connections, Duration.ofSeconds(5),
            () -> "the closed connection is still counted");
    }

    /** The other way round: an acceptor answering with extreme timers meets the dialler's bounds. */
    @Test
    void aWelcomeWithExtremeTimersGetsTheDiallersBounds() throws Exception {
        Context a = tcp.open();
        ContextId peer = ContextId.random();
        try (ServerSocket acceptor = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Object> dialled = RawPeer.dialTo(tcp.method(0), peer, acceptor);
            Socket accepted = acceptor.accept();
            sockets.add(accepted);
            accepted.setSoTimeout(10_000);
            accepted.getInputStream().readNBytes(Handshake.HELLO_LENGTH);
            accepted.getOutputStream().write(Handshake.welcome(Handshake.Status.ACCEPTED, peer, 1, -1).array());
            Connection connection = (Connection) dialled.get(10, TimeUnit.SECONDS);
            long start = System.nanoTime();
            int beats = RawPeer.heartbeatsUntilClosed(accepted);
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(!connection.isOpen() && ms >= 900 && ms < 5000,
                "a silent acceptor was declared dead after " + ms + " ms, not the dialler's own 1 s");
            assertTrue(beats <= ms / 40, beats + " heartbeats in " + ms + " ms for a connection at the 50 ms floor");
        }
    }

    @Test
    void handshakesUnderWayFromOneAddressAreBounded() throws Exception {
        Context b = tcp.open(Map.of("bindAddress", "127.0.0.1", "maxHandshakesPerSource", "2"));
        Context a = tcp.open();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        try (LogCapture log = new LogCapture("io.polylink.method.tcp")) {
            sockets.add(RawPeer.connect(listening(b)));
            sockets.add(RawPeer.connect(listening(b)));
            Socket third = RawPeer.connect(listening(b));
            sockets.add(third);
            assertEquals(Handshake.Status.BUSY, RawPeer.welcome(third).status());
            Await.until(() -> log.lines().stream().anyMatch(l -> l.matches("refused tcp connection from "
                + "/127\\.0\\.0\\.1:\\d+: 2 handshakes from that address are under way, the most it may have "
                + "\\(maxHandshakesPerSource\\)")), Duration.ofSeconds(5), () -> "no line names the refusal: " + log.lines());
            for (Socket s : sockets) {
                s.close(); // the two under way end, and the address may start others
            }
            Await.until(() -> log.lines().stream().filter(l -> l.endsWith("closed before completing the handshake"))
                .count() == 2, Duration.ofSeconds(5), () -> "b did not see both handshakes end: " + log.lines());
            linked(a, b, seen);
        }
    }

    @Test
    void connectionsFromOneAddressAreBounded() throws Exception {
        Context b = tcp.open(Map.of("bindAddress", "127.0.0.1", "maxConnectionsPerSource", "2",
            "failureTimeoutMs", "60000"));
        try (LogCapture log = new LogCapture("io.polylink.method.tcp")) {
            sockets.add(RawPeer.handshaken(listening(b), ContextId.random(), b.id(), 250, 60_000));
            sockets.add(RawPeer.handshaken(listening(b), ContextId.random(), b.id(), 250, 60_000));
            Socket third = RawPeer.connect(listening(b));
            sockets.add(third);
            assertEquals(Handshake.Status.BUSY, RawPeer.dial(third, ContextId.random(), b.id(), 250, 60_000, null).status());
            Await.until(() -> log.lines().stream().anyMatch(l -> l.matches("refused tcp connection from "
                + "/127\\.0\\.0\\.1:\\d+: 2 connections from that address are open, the most it may have "
                + "\\(maxConnectionsPerSource\\)")), Duration.ofSeconds(5), () -> "no line names the refusal: " + log.lines());
            sockets.get(0).close();
            Await.until(() -> {
                try (Socket again = RawPeer.connect(listening(b))) {
                    return RawPeer.dial(again, ContextId.random(), b.id(), 250, 60_000, null).status()
                        == Handshake.Status.ACCEPTED;
                } catch (IOException e) {
                    return false;
                }
            }, Duration.ofSeconds(5), () -> "a closed connection still counts against its address");
        }
    }
}
