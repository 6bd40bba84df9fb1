package io.polylink.method.tcp.internal;

import static io.polylink.method.tcp.internal.TcpContexts.in;
import static io.polylink.method.tcp.internal.TcpContexts.linked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.Startpoint;
import io.polylink.method.tcp.internal.connect.RawPeer;
import io.polylink.method.tcp.internal.loop.IoLoop;
import io.polylink.spi.FrameReceiver;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * No tcp thread dies of what one connection does, and a method whose I/O thread cannot go on
 * fails as a whole, visibly, instead of going quiet while its timer keeps heartbeating.
 */
class NoThreadDiesTest {

    private final TcpContexts tcp = new TcpContexts();

    @AfterEach
    void close() {
        tcp.close();
    }

    /**
     * The core's receiver throws an Error on the first frame one peer sends, as an inline handler
     * out of memory or stack would: that connection is closed with one line, the I/O thread
     * serves the other peer on, and the first peer's RSR arrives once it has connected again.
     */
    @Test
    void anErrorFromOneConnectionClosesItAndTheIoThreadServesEveryoneOn() throws Exception {
        Context a = tcp.open();
        ContextId failing = a.id();
        AtomicBoolean thrown = new AtomicBoolean();
        TcpMethod atB = new TcpMethod(TcpContexts.LOOPBACK);
        Context b = tcp.open(atB, new WrappedReceivers(atB, (connection, receiver) ->
            connection.peer().equals(failing) ? throwingOnce(receiver, thrown) : receiver));
        Context c = tcp.open();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint fromC = linked(c, b, seen);
        int ioThreads = TcpContexts.threadCount("polylink-tcp-io");
        List<Integer> fromAseen = new CopyOnWriteArrayList<>();
        try (LogCapture log = new LogCapture("io.polylink.method.tcp")) {
            Startpoint fromA = in(a, b.createEndpoint().register(1, (e, m) -> fromAseen.add(m.getInt())).startpoint());
            fromA.send(1, a.allocateBuffer(4).putInt(7));
            Await.until(() -> log.lines().stream().anyMatch(l -> l.matches("polylink-tcp-io closed tcp connection to "
                + failing + " at 127\\.0\\.0\\.1:\\d+ after an unexpected java\\.lang\\.OutOfMemoryError: thrown by "
                + "the test's receiver; it goes on with the others")), Duration.ofSeconds(10),
                () -> "no line names the connection closed for the Error: " + log.lines());
            Await.until(() -> fromAseen.contains(7), Duration.ofSeconds(10),
                () -> "a's RSR did not arrive once a connected again");
        }
        fromC.send(1, c.allocateBuffer(4).putInt(2));
        Await.until(() -> seen.contains(2), Duration.ofSeconds(5), () -> "the other peer's link broke");
        assertEquals(ioThreads, TcpContexts.threadCount("polylink-tcp-io"), "an I/O thread died");
        Await.until(() -> atB.connectionCount() == 2, Duration.ofSeconds(5),
            () -> "b holds " + atB.connectionCount() + " connections, not one to each peer");
        assertEquals(0, atB.largeFrameBytes());
    }

    /**
     * The I/O thread's selector closes under it: the thread cannot go on. The method says so, and
     * stops: its heartbeats stop and its connections close, so peers see it gone and move their
     * links; its listener closes; this context's sends find tcp applying to nothing, with why.
     */
    @Test
    void aMethodWhoseIoThreadCannotGoOnFailsVisiblyAndItsPeersSeeItGone() throws Exception {
        Context a = tcp.open();
        Context b = tcp.open(Map.of("bindAddress", "127.0.0.1", "heartbeatIntervalMs", "50", "failureTimeoutMs", "60000"));
        List<Integer> seen = new CopyOnWriteArrayList<>();
        linked(a, b, seen);
        TcpMethod atB = tcp.method(1);
        int tcpThreads = TcpContexts.threadCount("polylink-tcp-");
        try (LogCapture log = new LogCapture("io.polylink.method.tcp");
             Socket raw = RawPeer.handshaken(TcpContexts.listening(b), ContextId.random(), b.id(), 50, 60_000)) {
            selector(atB).close();
            Await.until(() -> log.lines().stream().anyMatch(l -> l.startsWith("the tcp method cannot go on and stops: "
                + "polylink-tcp-io stopped after java.nio.channels.ClosedSelectorException")), Duration.ofSeconds(10),
                () -> "no line says the method stopped: " + log.lines());
            assertEndsWithoutHeartbeatingForever(raw);
        }
        Await.until(() -> TcpContexts.threadCount("polylink-tcp-") == tcpThreads - 3, Duration.ofSeconds(10),
            () -> "b's tcp threads did not all end: " + Await.threads("polylink-tcp-"));
        assertFalse(atB.applicable(a.id(), tcp.method(0).localAddress()).applicable());
        assertTrue(atB.applicable(a.id(), tcp.method(0).localAddress()).reason().startsWith("the tcp method failed "
            + "(polylink-tcp-io stopped after java.nio.channels.ClosedSelectorException"));
        // The method stops on a thread of its own, and the count above includes a's threads, so the
        // listener may close a moment after it: a connection made before then is closed again.
        AtomicReference<LinkException> refused = new AtomicReference<>();
        Await.until(() -> {
            try {
                tcp.connection(0, 1).close();
                return false;
            } catch (LinkException e) {
                refused.set(e);
                return true;
            }
        }, Duration.ofSeconds(10), () -> "b's listener still takes connections 10 s after its method stopped");
        assertTrue(refused.get().getMessage().contains("connection refused"), refused.get().getMessage());
    }

    /** Reads heartbeats until the connection ends; a connection still heartbeating after 5 s fails the test. */
    private static void assertEndsWithoutHeartbeatingForever(Socket raw) throws Exception {
        long end = System.nanoTime() + 5_000_000_000L;
        InputStream in = raw.getInputStream();
        try {
            while (in.read() >= 0) {
                assertTrue(System.nanoTime() - end < 0, "the stopped method's connection still heartbeats after 5 s");
            }
        } catch (SocketException reset) {
            // ended too
        }
    }

    private static FrameReceiver throwingOnce(FrameReceiver core, AtomicBoolean thrown) {
        return new FrameReceiver() {
            @Override
            public boolean onFrame(ByteBuffer frame) {
                if (thrown.compareAndSet(false, true)) {
                    throw new OutOfMemoryError("thrown by the test's receiver");
                }
                return core.onFrame(frame);
            }

            @Override
            public void onClosed(Throwable cause) {
                core.onClosed(cause);
            }
        };
    }

    /** The I/O loop's selector of a started method: what the test closes under it. */
    private static Selector selector(TcpMethod method) throws ReflectiveOperationException {
        Field loop = TcpMethod.class.getDeclaredField("loop");
        loop.setAccessible(true);
        Field selector = IoLoop.class.getDeclaredField("selector");
        selector.setAccessible(true);
        return (Selector) selector.get(loop.get(method));
    }
}
