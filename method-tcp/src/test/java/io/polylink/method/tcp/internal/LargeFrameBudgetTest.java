package io.polylink.method.tcp.internal;

import static io.polylink.method.tcp.internal.TcpContexts.in;
import static io.polylink.method.tcp.internal.TcpContexts.linked;
import static io.polylink.method.tcp.internal.TcpContexts.listening;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.polylink.Context;
import io.polylink.ContextId;
import io.polylink.Startpoint;
import io.polylink.method.tcp.internal.connect.RawPeer;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A frame larger than a read buffer gets a buffer that grows with the bytes that arrive, within a
 * budget all connections share: a peer that announces a large frame and stalls holds what it
 * sent, and one whose frame would take the budget past its bound is refused.
 */
class LargeFrameBudgetTest {

    private static final int LENGTH = 4 << 20;
    private static final int BUDGET = 1 << 20;

    private final TcpContexts tcp = new TcpContexts();

    @AfterEach
    void close() {
        tcp.close();
    }

    @Test
    void aStalledFrameHoldsWhatArrivedAndTheBudgetRefusesAFrameBeyondIt() throws Exception {
        Context b = tcp.open(Map.of("bindAddress", "127.0.0.1", "largeFrameBudget", Integer.toString(BUDGET),
            "failureTimeoutMs", "10000"));
        Context a = tcp.open();
        TcpMethod atB = tcp.method(0);
        List<Integer> seen = new CopyOnWriteArrayList<>();
        linked(a, b, seen);
        long directBefore = directMemoryAfterGc();
        try (LogCapture core = new LogCapture("io.polylink.core");
             Socket stalled = RawPeer.handshaken(listening(b), ContextId.random(), b.id(), 250, 10_000);
             Socket greedy = RawPeer.handshaken(listening(b), ContextId.random(), b.id(), 250, 10_000)) {
            startFrame(stalled.getOutputStream(), 70 * 1024);
            Await.until(() -> atB.largeFrameBytes() == 128 * 1024, Duration.ofSeconds(5),
                () -> "a 4 MiB frame of which 70 KiB came holds " + atB.largeFrameBytes() + " bytes, not 128 KiB");

            try {
                startFrame(greedy.getOutputStream(), BUDGET);
            } catch (IOException closedMeanwhile) {
                // refused while it was still sending
            }
            Await.until(() -> core.lines().stream().anyMatch(l -> l.matches("tcp connection to .* at 127\\.0\\.0\\.1:\\d+ "
                + "closed: a frame of 4194304 bytes was refused: the connections hold \\d+ of the 1048576 bytes "
                + "budgeted for large frames still arriving \\(largeFrameBudget\\), and its buffer needs \\d+ more")),
                Duration.ofSeconds(10), () -> "no line names the refused frame: " + core.lines());
            assertEquals(128 * 1024, atB.largeFrameBytes(), "the refused frame's buffer went back to the budget");
        }
        Await.until(() -> atB.largeFrameBytes() == 0, Duration.ofSeconds(10),
            () -> "with the stalled peer gone b still holds " + atB.largeFrameBytes() + " bytes for large frames");
        Await.until(() -> directMemoryAfterGc() <= directBefore + 64 * 1024, Duration.ofSeconds(10),
            () -> "direct memory in use grew from " + directBefore + " to " + directMemoryAfterGc() + " bytes");

        AtomicLong bytes = new AtomicLong();
        Startpoint large = in(a, b.createEndpoint().register(1, (e, m) -> bytes.set(m.length())).startpoint());
        large.send(1, a.allocateBuffer(300_000).putRaw(new byte[300_000], 0, 300_000));
        Await.until(() -> bytes.get() == 300_000, Duration.ofSeconds(10), () -> "a healthy large RSR was refused");
        linked(a, b, seen);
    }

    /**
     * Writes the length of a {@link #LENGTH}-byte frame and its first {@code bytes}, from a thread
     * of its own: the JDK keeps a direct buffer per thread for socket writes, and lets it go when
     * the thread ends, so the test's measure of direct memory sees only the context's.
     */
    private static void startFrame(OutputStream out, int bytes) throws Exception {
        CompletableFuture<Void> written = new CompletableFuture<>();
        Thread writer = new Thread(() -> {
            try {
                out.write(ByteBuffer.allocate(4).putInt(LENGTH).array());
                out.write(new byte[bytes]);
                out.flush();
                written.complete(null);
            } catch (IOException | RuntimeException e) {
                written.completeExceptionally(e);
            }
        }, "test-raw-writer");
        writer.start();
        writer.join(10_000);
        try {
            written.get(0, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : e;
        }
    }

    private static long directMemoryAfterGc() {
        System.gc();
        return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter(p -> p.getName().equals("direct")).mapToLong(BufferPoolMXBean::getMemoryUsed).sum();
    }
}
