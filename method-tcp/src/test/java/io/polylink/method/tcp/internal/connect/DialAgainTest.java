package io.polylink.method.tcp.internal.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.method.tcp.internal.TestMethodContext;
import io.polylink.method.tcp.internal.address.TcpAddress;
import io.polylink.method.tcp.internal.config.TcpSettings;
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
 * A peer that dials again replaces the connection it dialled before, and this side's links move
 * onto the new one as soon as they hear the old one closed: before the new one is answered, in
 * BundleUpdatesInNodeIT, which left the node's echo link on a connection that was never started.
 */
class DialAgainTest {

    private static final ContextId SELF = ContextId.random();
    private static final ContextId PEER = ContextId.random();
    private static final long LIMIT_MS = 10_000;

    private final TcpMethod method = new TcpMethod(Map.of("bindAddress", "127.0.0.1"));
    private final CountDownLatch replacedClosing = new CountDownLatch(1);
    private final CountDownLatch sentOnTheNewOne = new CountDownLatch(1);
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() throws IOException {
        sentOnTheNewOne.countDown();
        for (Socket s : sockets) {
            s.close();
        }
        method.stop();
        Await.noThreads("polylink-tcp");
    }

    @Test
    void theDiallerReadsTheWelcomeBeforeAFrameFromALinkLeavingTheConnectionItReplaces() throws Exception {
        AtomicInteger opened = new AtomicInteger();
        method.start(context(connection -> opened.incrementAndGet() == 1 ? new Replaced() : new Quiet()));
        Socket first = dial();
        assertEquals(Handshake.Status.ACCEPTED, welcome(first).status());

        Socket second = dial();
        assertTrue(replacedClosing.await(LIMIT_MS, TimeUnit.MILLISECONDS), "the first connection was not replaced");
        // What a link does that hears its connection closed: it takes the peer's connection and sends.
        Connection fresh = method.connect(PEER, method.localAddress(), Map.of());
        fresh.send(ByteBuffer.wrap(new byte[12]), ByteBuffer.wrap(new byte[8]));
        sentOnTheNewOne.countDown();

        Handshake.Welcome answer = welcome(second);
        assertEquals(Handshake.Status.ACCEPTED, answer.status());
        assertTrue(fresh.isOpen(), "the connection the link took closed");
    }

    /**
     * The rest of that story: a connection published before it started, whose first send failed,
     * closed with no receiver to tell; the core, which may have links on it, hears it at start.
     */
    @Test
    void aConnectionThatClosedBeforeItStartedTellsItsReceiverWhenItStarts() throws Exception {
        try (IoLoop loop = new IoLoop("polylink-tcp-io", IdleStrategy.BLOCK, 0, held -> IoLoop.NO_TIMERS);
             ServerSocketChannel server = ServerSocketChannel.open()
                 .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel socket = SocketChannel.open(server.getLocalAddress())) {
            TcpConnection connection = new TcpConnection(socket, PEER, false, 0, TcpSettings.read(Map.of()).link(),
                1 << 20, loop, new Connections());
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
            byte[] address = TcpAddress.encode(List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                peer.getLocalPort())));
            CompletableFuture<Object> dialled = CompletableFuture.supplyAsync(() -> {
                try {
                    return method.connect(PEER, address, Map.of());
                } catch (RuntimeException e) {
                    return e;
                }
            });
            try (Socket accepted = peer.accept()) {
                accepted.setSoTimeout((int) LIMIT_MS);
                accepted.getInputStream().readNBytes(Handshake.hello(SELF, PEER, 0, 250, 1000).remaining());
                method.stop();
                accepted.getOutputStream().write(Handshake.welcome(Handshake.Status.ACCEPTED, PEER).array());
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
    void aDialFromAPeerWithTheLowerIdReplacesTheConnectionThisSideDialled() throws Exception {
        ContextId self = new ContextId(0, 2);
        ContextId lower = new ContextId(0, 1);
        method.start(context(self, connection -> new Quiet()));
        try (ServerSocket peer = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Connection ours = dialledBy(peer, lower, self);
            Socket theirs = dial(lower, self);
            assertEquals(Handshake.Status.ACCEPTED, welcome(theirs).status());
            Await.until(() -> !ours.isOpen(), Duration.ofMillis(LIMIT_MS),
                () -> "the connection this side dialled was kept beside the peer's");
            Connection now = method.connect(lower, addressOf(peer), Map.of());
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
            LinkException refused = assertThrows(LinkException.class, () -> method.connect(PEER, addressOf(peer), Map.of()));
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
                    () -> method.connect(PEER, addressOf(peer), Map.of()));
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
            answering.getInputStream().readNBytes(Handshake.hello(SELF, PEER, 0, 250, 1000).remaining());
            answering.getOutputStream().write(Handshake.welcome(Handshake.Status.ACCEPTED, PEER).array());
            Await.until(() -> {
                try {
                    return method.connect(PEER, addressOf(peer), Map.of()).isOpen();
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
            Connection ours = dialledBy(peer, higher, self);
            Socket theirs = dial(higher, self);
            assertEquals(Handshake.Status.DUPLICATE, welcome(theirs).status());
            assertTrue(ours.isOpen(), "the connection both sides use was closed");
            assertTrue(method.connect(higher, addressOf(peer), Map.of()) == ours, "links left the connection");
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
                () -> method.connect(lower, addressOf(peer), Map.of()));
            try (Socket first = peer.accept()) {
                first.setSoTimeout((int) LIMIT_MS);
                first.getInputStream().readNBytes(Handshake.hello(self, lower, 0, 250, 1000).remaining());
                first.getOutputStream().write(Handshake.welcome(Handshake.Status.DUPLICATE, lower).array());
            }
            Socket second;
            try {
                second = peer.accept();
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the dial answered DUPLICATE did not ask again within " + LIMIT_MS + " ms", e);
            }
            sockets.add(second);
            second.setSoTimeout((int) LIMIT_MS);
            second.getInputStream().readNBytes(Handshake.hello(self, lower, 0, 250, 1000).remaining());
            second.getOutputStream().write(Handshake.welcome(Handshake.Status.ACCEPTED, lower).array());
            Connection connection = dialled.get(LIMIT_MS, TimeUnit.MILLISECONDS);
            assertTrue(connection.isOpen(), "the second dial's connection is closed");
        }
    }

    /** Has the method dial {@code peer}, a raw socket answering as context {@code as}. */
    private Connection dialledBy(ServerSocket peer, ContextId as, ContextId self) throws Exception {
        CompletableFuture<Connection> dialled = CompletableFuture.supplyAsync(
            () -> method.connect(as, addressOf(peer), Map.of()));
        Socket accepted = peer.accept();
        sockets.add(accepted);
        accepted.setSoTimeout((int) LIMIT_MS);
        accepted.getInputStream().readNBytes(Handshake.hello(self, as, 0, 250, 1000).remaining());
        accepted.getOutputStream().write(Handshake.welcome(Handshake.Status.ACCEPTED, as).array());
        return dialled.get(LIMIT_MS, TimeUnit.MILLISECONDS);
    }

    /** Has the method dial {@code peer}, which never sends a heartbeat, and close it for that. */
    private void closedForSilence(ServerSocket peer) throws Exception {
        Connection silent = dialledBy(peer, PEER, SELF);
        Await.until(() -> !silent.isOpen(), Duration.ofMillis(LIMIT_MS),
            () -> "a peer that never sent a heartbeat was not closed");
    }

    private static byte[] addressOf(ServerSocket peer) {
        return TcpAddress.encode(List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), peer.getLocalPort())));
    }

    /** A raw socket that sends a hello from {@link #PEER}, as a peer context dialling does. */
    private Socket dial() throws IOException {
        return dial(PEER, SELF);
    }

    private Socket dial(ContextId from, ContextId to) throws IOException {
        Socket raw = new Socket();
        sockets.add(raw);
        raw.connect(TcpAddress.decode(method.localAddress()).get(0), (int) LIMIT_MS);
        raw.setSoTimeout((int) LIMIT_MS);
        raw.getOutputStream().write(Handshake.hello(from, to, 0, 250, 1000).array());
        return raw;
    }

    private static Handshake.Welcome welcome(Socket raw) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(raw.getInputStream().readNBytes(Handshake.WELCOME_LENGTH));
        assertNull(Handshake.checkMagic(bytes, 0), "the dialler's first bytes are not the welcome");
        Handshake.Welcome w = Handshake.readWelcome(bytes, 0);
        assertNotNull(w, "the dialler's first bytes are not a welcome");
        return w;
    }

    private static MethodContext context(InboundSink inbound) {
        return context(SELF, inbound);
    }

    private static MethodContext context(ContextId self, InboundSink inbound) {
        ProblemLog log = new ProblemLog() {
            @Override
            public void warn(String kind, String message, Throwable cause) {
                System.getLogger("io.polylink.method.tcp").log(System.Logger.Level.WARNING, message, cause);
            }

            @Override
            public void warn(String kind, int perSecond, String message, Throwable cause) {
                warn(kind, message, cause);
            }
        };
        return new TestMethodContext(self, inbound, 1 << 20, log, HostIdentity.named("dial-again-test"));
    }

    /** The core's side of the first connection: hearing it closed, the test's link moves. */
    private final class Replaced extends Quiet {
        @Override
        public void onClosed(Throwable cause) {
            replacedClosing.countDown();
            try {
                sentOnTheNewOne.await(LIMIT_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
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
