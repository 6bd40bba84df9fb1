package io.polylink.method.tcp.internal.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.method.tcp.internal.TestMethodContext;
import io.polylink.method.tcp.internal.address.TcpAddress;
import io.polylink.method.tcp.internal.config.TcpSettings;
import io.polylink.method.tcp.internal.connection.FrameLimits;
import io.polylink.method.tcp.internal.connection.TcpConnection;
import io.polylink.method.tcp.internal.loop.IdleStrategy;
import io.polylink.method.tcp.internal.loop.IoLoop;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import io.polylink.spi.InboundSink;
import io.polylink.spi.HostIdentity;
import io.polylink.spi.MethodContext;
import io.polylink.spi.ProblemLog;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A peer that dials again replaces the connection it dialled before once that one is shown gone,
 * and a dial claiming a context whose connection is alive is refused; the rules that settle two
 * contexts dialling each other at once; and dials to peers gone silent.
 */
class DialAgainTest {

    private static final ContextId SELF = ContextId.random();
    private static final ContextId PEER = ContextId.random();
    private static final long LIMIT_MS = 10_000;
    private static final ProblemLog PROBLEMS = TestMethodContext.logging();

    private final TcpMethod method = new TcpMethod(Map.of("bindAddress", "127.0.0.1"));
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        method.stop();
        Await.noThreads("polylink-tcp");
    }

    /**
     * The peer's end of its connection is gone (its method was replaced, say), and it dials again:
     * the old connection is found gone, and the new one answered, before any frame goes on it.
     */
    @Test
    void aDialFromAPeerWhoseEndIsGoneReplacesItsConnectionAndTheWelcomeComesFirst() throws Exception {
        method.start(context(connection -> new Quiet()));
        Socket first = dial();
        assertEquals(Handshake.Status.ACCEPTED, RawPeer.welcome(first).status());
        Connection old = method.connect(PEER, method.localAddress(), Map.of());
        first.close();

        Socket second = dial();
        assertEquals(Handshake.Status.ACCEPTED, RawPeer.welcome(second).status());
        assertFalse(old.isOpen(), "the connection whose end is gone is still open beside the new one");
        Connection fresh = method.connect(PEER, method.localAddress(), Map.of());
        assertNotSame(old, fresh);
        fresh.send(ByteBuffer.wrap(new byte[12]), ByteBuffer.wrap(new byte[8]));
        DataInputStream in = new DataInputStream(second.getInputStream());
        int length;
        do {
            length = in.readInt();
        } while (length == 0); // heartbeats
        assertEquals(20, length, "the frame after the welcome");
    }

    /**
     * Context ids are public: a stranger dials claiming a connected peer's. The live connection
     * does not fail its probes, so the stranger is refused and the peer keeps its connection.
     */
    @Test
    void aDialClaimingAContextWithALiveConnectionIsRefusedAndTheConnectionKept() throws Exception {
        TcpMethod patient = new TcpMethod(Map.of("bindAddress", "127.0.0.1", "failureTimeoutMs", "60000"));
        try (LogCapture log = new LogCapture("io.polylink.method.tcp")) {
            patient.start(context(connection -> new Quiet()));
            Socket real = RawPeer.connect(TcpAddress.decode(patient.localAddress()).get(0));
            sockets.add(real);
            assertEquals(Handshake.Status.ACCEPTED, RawPeer.dial(real, PEER, SELF, 250, 60_000, null).status());
            Connection live = patient.connect(PEER, patient.localAddress(), Map.of());

            Socket impostor = RawPeer.connect(TcpAddress.decode(patient.localAddress()).get(0));
            sockets.add(impostor);
            long start = System.nanoTime();
            assertEquals(Handshake.Status.IN_USE, RawPeer.dial(impostor, PEER, SELF, 250, 60_000, null).status());
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(ms < 1500, "refused after " + ms + " ms; the probes last half the 2 s connect timeout");
            assertTrue(live.isOpen(), "the live connection was given up for a stranger's claim");
            assertSame(live, patient.connect(PEER, patient.localAddress(), Map.of()));
            Await.until(() -> log.lines().stream().anyMatch(l -> l.matches("refused tcp connection from /127\\.0\\.0"
                + "\\.1:\\d+: context " + PEER + " has a live connection here \\(tcp connection to " + PEER + " at "
                + "127\\.0\\.0\\.1:\\d+\\) that did not fail through \\d+ ms of probes; a new dial takes a "
                + "connected context's place only once its old connection is closed or silent")),
                Duration.ofSeconds(5), () -> "no line names the refusal: " + log.lines());
        } finally {
            patient.stop();
        }
    }

    /**
     * The rest of that story: a connection published before it started, whose first send failed,
     * closed with no receiver to tell; the core, which may have links on it, hears it at start.
     */
    @Test
    void aConnectionThatClosedBeforeItStartedTellsItsReceiverWhenItStarts() throws Exception {
        try (IoLoop loop = new IoLoop("polylink-tcp-io", IdleStrategy.BLOCK, 0, held -> IoLoop.NO_TIMERS, PROBLEMS,
                 cause -> { });
             ServerSocketChannel server = ServerSocketChannel.open()
                 .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel socket = SocketChannel.open(server.getLocalAddress())) {
            TcpConnection connection = new TcpConnection(socket, PEER, false, 0, TcpSettings.read(Map.of()).link(),
                new FrameLimits(1 << 20, 1 << 20), loop, new Connections());
            connection.close();
            CountDownLatch told = new CountDownLatch(1);
            connection.start(new Quiet() {
                @Override
                public void onClosed(Throwable cause) {
                    told.countDown();
                }
            });
            assertTrue(told.await(LIMIT_MS, TimeUnit.MILLISECONDS), "the receiver never heard its connection closed");
        }
    }

    /**
     * A dial whose welcome comes after the method stopped: the connection would join the ones
     * stop() had already closed, and nobody would close it.
     */
    @Test
    void aDialAnsweredAfterTheMethodStoppedClosesItsSocket() throws Exception {
        method.start(context(connection -> new Quiet()));
        try (ServerSocket peer = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Object> dialled = RawPeer.dialTo(method, PEER, peer);
            try (Socket accepted = peer.accept()) {
                accepted.setSoTimeout((int) LIMIT_MS);
                accepted.getInputStream().readNBytes(Handshake.HELLO_LENGTH);
                method.stop();
                accepted.getOutputStream().write(Handshake.welcome(Handshake.Status.ACCEPTED, PEER, 250, 1000).array());
                Object result = dialled.get(LIMIT_MS, TimeUnit.MILLISECONDS);
                assertTrue(result instanceof LinkException e && e.getMessage().contains("stopped while connecting"),
                    String.valueOf(result));
                assertEquals(-1, accepted.getInputStream().read(), "the dialled socket was left open");
            }
        }
    }

    /**
     * A peer with the lower id refuses this side's dial while it dials itself, so its dial means its
     * end of the connection this side dialled is gone, though this side has not read the close. It
     * was answered DUPLICATE, and the peer's own next dial then found this side dialling: each
     * waited out its connect timeout for the other's connection: one way to the 2 s gaps in
     * BundleUpdatesInNodeIT's aead phase, where aead closes a connection whose session restarted.
     */
    @Test
    void aDialFromAPeerWithTheLowerIdReplacesTheConnectionThisSideDialledOnceItsEndIsGone() throws Exception {
        ContextId self = new ContextId(0, 2);
        ContextId lower = new ContextId(0, 1);
        method.start(context(self, connection -> new Quiet()));
        try (ServerSocket peer = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Connection ours = dialledBy(peer, lower);
            sockets.get(sockets.size() - 1).close(); // the peer's end of it
            Socket theirs = dial(lower, self);
            assertEquals(Handshake.Status.ACCEPTED, RawPeer.welcome(theirs).status());
            Await.until(() -> !ours.isOpen(), Duration.ofMillis(LIMIT_MS),
                () -> "the connection this side dialled was kept beside the peer's");
            Connection now = method.connect(lower, RawPeer.addressOf(peer), Map.of());
            assertTrue(now != ours && now.isOpen(), "links do not get the peer's connection: " + now);
        }
    }

    /**
     * A peer that stops (SIGSTOP, a debugger) goes silent, but its kernel still accepts a dial: a
     * send that dialled it again at once waited out the connect timeout too, and a sender blocked
     * on the dead connection heard of it after 3 s instead of the 1 s failure timeout.
     */
    @Test
    void aPeerClosedForSilenceIsNotDialledAgainAtOnce() throws Exception {
        method.start(context(connection -> new Quiet()));
        try (ServerSocket peer = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedForSilence(peer);
            LinkException refused = assertThrows(LinkException.class, () -> method.connect(PEER, RawPeer.addressOf(peer), Map.of()));
            String said = refused.getMessage();
            assertTrue(said.contains("went silent (no heartbeat for 1000 ms); it is dialled in the background, not on "
                + "the sender's thread (next in "), said);
        }
    }

    /**
     * And after the failure timeout: a send that dialled the still silent peer waited out the
     * connect timeout for a handshake it could not answer, 2 to 4 s for each send, for as long as
     * the peer stayed stopped. Now the dial goes in the background, and once the peer answers it
     * the links have their connection.
     */
    @Test
    void aSilentPeerIsDialledInTheBackgroundNeverOnTheSendersThread() throws Exception {
        method.start(context(connection -> new Quiet()));
        try (ServerSocket peer = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedForSilence(peer);
            CompletableFuture<Socket> backgroundDial = CompletableFuture.supplyAsync(() -> {
                try {
                    peer.setSoTimeout((int) LIMIT_MS);
                    return peer.accept();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            long longest = 0;
            for (int attempt = 0; !backgroundDial.isDone(); attempt++) {
                assertTrue(attempt < 200, "no dial reached the peer in the background after " + attempt + " sends");
                long start = System.nanoTime();
                LinkException refused = assertThrows(LinkException.class,
                    () -> method.connect(PEER, RawPeer.addressOf(peer), Map.of()));
                longest = Math.max(longest, System.nanoTime() - start);
                assertTrue(refused.getMessage().contains("went silent"), refused.getMessage());
                try {
                    backgroundDial.get(50, TimeUnit.MILLISECONDS); // paces the sends
                } catch (TimeoutException stillSilent) {
                    // the peer has not been dialled yet
                }
            }
            assertTrue(longest < TimeUnit.MILLISECONDS.toNanos(250), "a send to the silent peer was held "
                + TimeUnit.NANOSECONDS.toMillis(longest) + " ms");
            Socket answering = backgroundDial.get(LIMIT_MS, TimeUnit.MILLISECONDS);
            sockets.add(answering);
            answering.setSoTimeout((int) LIMIT_MS);
            RawPeer.answer(answering, PEER, Handshake.Status.ACCEPTED);
            Await.until(() -> {
                try {
                    return method.connect(PEER, RawPeer.addressOf(peer), Map.of()).isOpen();
                } catch (LinkException stillSilent) {
                    return false;
                }
            }, Duration.ofMillis(LIMIT_MS), () -> "the peer answered the background dial, but sends "
                + "still find no connection");
        }
    }

    /** The dials crossed: the peer with the higher id accepted this side's and will use it. */
    @Test
    void aDialFromAPeerWithTheHigherIdWhileThisSideHoldsTheOneItDialledIsADuplicate() throws Exception {
        ContextId self = new ContextId(0, 1);
        ContextId higher = new ContextId(0, 2);
        method.start(context(self, connection -> new Quiet()));
        try (ServerSocket peer = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Connection ours = dialledBy(peer, higher);
            Socket theirs = dial(higher, self);
            assertEquals(Handshake.Status.DUPLICATE, RawPeer.welcome(theirs).status());
            assertTrue(ours.isOpen(), "the connection both sides use was closed");
            assertTrue(method.connect(higher, RawPeer.addressOf(peer), Map.of()) == ours, "links left the connection");
        }
    }

    /**
     * The other half: this side, with the higher id, closed a connection the peer dialled and dials
     * it. The peer has not read the close, so it answers DUPLICATE, and it dials back only once it
     * reads the close and has something to send: an idle peer never would, and the dial waited out
     * its connect timeout, then failed. It asks again instead.
     */
    @Test
    void aDialAnsweredDuplicateWithNoConnectionFollowingAsksAgain() throws Exception {
        ContextId self = new ContextId(0, 2);
        ContextId lower = new ContextId(0, 1);
        method.start(context(self, connection -> new Quiet()));
        try (ServerSocket peer = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            peer.setSoTimeout((int) LIMIT_MS);
            CompletableFuture<Connection> dialled = CompletableFuture.supplyAsync(
                () -> method.connect(lower, RawPeer.addressOf(peer), Map.of()));
            try (Socket first = peer.accept()) {
                first.setSoTimeout((int) LIMIT_MS);
                RawPeer.answer(first, lower, Handshake.Status.DUPLICATE);
            }
            Socket second;
            try {
                second = peer.accept();
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the dial answered DUPLICATE did not ask again within " + LIMIT_MS + " ms", e);
            }
            sockets.add(second);
            second.setSoTimeout((int) LIMIT_MS);
            RawPeer.answer(second, lower, Handshake.Status.ACCEPTED);
            Connection connection = dialled.get(LIMIT_MS, TimeUnit.MILLISECONDS);
            assertTrue(connection.isOpen(), "the second dial's connection is closed");
        }
    }

    /** Has the method dial {@code peer}, a raw socket answering as context {@code as}; the socket is the last of {@link #sockets}. */
    private Connection dialledBy(ServerSocket peer, ContextId as) throws Exception {
        CompletableFuture<Object> dialled = RawPeer.dialTo(method, as, peer);
        Socket accepted = peer.accept();
        sockets.add(accepted);
        accepted.setSoTimeout((int) LIMIT_MS);
        RawPeer.answer(accepted, as, Handshake.Status.ACCEPTED);
        return (Connection) dialled.get(LIMIT_MS, TimeUnit.MILLISECONDS);
    }

    /** Has the method dial {@code peer}, which never sends a heartbeat, and close it for that. */
    private void closedForSilence(ServerSocket peer) throws Exception {
        Connection silent = dialledBy(peer, PEER);
        Await.until(() -> !silent.isOpen(), Duration.ofMillis(LIMIT_MS),
            () -> "a peer that never sent a heartbeat was not closed");
    }

    /** A raw socket that sends a hello from {@link #PEER}, as a peer context dialling does. */
    private Socket dial() throws IOException {
        return dial(PEER, SELF);
    }

    private Socket dial(ContextId from, ContextId to) throws IOException {
        Socket raw = RawPeer.connect(TcpAddress.decode(method.localAddress()).get(0));
        sockets.add(raw);
        raw.getOutputStream().write(RawPeer.hello(from, to, 250, 1000, null).array());
        return raw;
    }

    private static MethodContext context(InboundSink inbound) {
        return context(SELF, inbound);
    }

    private static MethodContext context(ContextId self, InboundSink inbound) {
        return new TestMethodContext(self, inbound, 1 << 20, PROBLEMS, HostIdentity.named("dial-again-test"));
    }

    private static class Quiet implements FrameReceiver {
        @Override
        public boolean onFrame(ByteBuffer frame) {
            return true;
        }

        @Override
        public void onClosed(Throwable cause) {}
    }
}
