package io.polylink.method.tcp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import io.polylink.spi.InboundSink;
import io.polylink.spi.MethodContext;
import io.polylink.testkit.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
        method.start(context(connection -> new Quiet()));
        try (ServerSocketChannel server = ServerSocketChannel.open()
                 .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel socket = SocketChannel.open(server.getLocalAddress())) {
            TcpConnection connection = new TcpConnection(method, socket, PEER,
                TcpSettingsParser.parse(Map.of()).link(), 0, 1 << 20, false);
            connection.close();
            CountDownLatch told = new CountDownLatch(1);
            connection.start(new Quiet() {
                @Override
                public void onClosed(Throwable cause) {
                    told.countDown();
                }
            }, method.loop());
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

    /** A raw socket that sends a hello from {@link #PEER}, as a peer context dialling does. */
    private Socket dial() throws IOException {
        Socket raw = new Socket();
        sockets.add(raw);
        raw.connect(TcpAddress.decode(method.localAddress()).get(0), (int) LIMIT_MS);
        raw.setSoTimeout((int) LIMIT_MS);
        raw.getOutputStream().write(Handshake.hello(PEER, SELF, 0, 250, 1000).array());
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
        return new MethodContext() {
            @Override
            public ContextId contextId() {
                return SELF;
            }

            @Override
            public InboundSink inbound() {
                return inbound;
            }

            @Override
            public int maxFrameSize() {
                return 1 << 20;
            }
        };
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
