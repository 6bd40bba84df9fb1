package io.polylink.core.internal.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.core.internal.ChecksumTransform;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.PipeMethod;
import io.polylink.testkit.Await;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Bytes an application lends a message ({@link MessageBuffer#putLent}): sent from where they are,
 * sent again from there when a link moves, and given back only once the peer acknowledged them.
 * Each buffer is scribbled over as soon as it comes back, so a frame sent from it after that would
 * arrive with other bytes than were lent.
 */
class LentBytesTest {

    private static final int SINK = 1;
    private static final int LENT = 64 * 1024;
    private static final int BUFFERS = 4;
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final PipeMethod.Network network = new PipeMethod.Network();
    private final List<EmbeddedContext> contexts = new CopyOnWriteArrayList<>();
    private final List<String> problems = new CopyOnWriteArrayList<>();
    /** The sequence number the sink expects next. */
    private final AtomicLong delivered = new AtomicLong();
    /**
     * The sequence number after the last RSR that reached the sink. The peer's acknowledgement may
     * leave while the handler still runs, carried out by another thread's frame, so a loan may come
     * back before {@link #delivered} moves, but never before its RSR arrived.
     */
    private final AtomicLong arrived = new AtomicLong();

    @AfterEach
    void close() {
        contexts.forEach(EmbeddedContext::close);
        Await.noThreads("polylink-");
    }

    private EmbeddedContext open(Map<String, ?> configuration) {
        EmbeddedContext c = EmbeddedContext.open(configuration);
        contexts.add(c);
        return c;
    }

    /** A sink in {@code where} that checks each RSR's number and lent bytes, as {@code from} reaches it. */
    private Startpoint sink(EmbeddedContext where, EmbeddedContext from) {
        Endpoint sink = where.context().createEndpoint().register(SINK, Delivery.INLINE, (e, m) -> {
            long seq = m.getLong();
            arrived.set(seq + 1);
            byte[] got = new byte[m.remaining()];
            m.getRaw(got, 0, got.length);
            if (seq != delivered.get() || got.length != LENT || !Arrays.equals(got, pattern(seq))) {
                if (problems.size() < 10) {
                    problems.add("RSR " + seq + " (expected " + delivered.get() + ", " + got.length
                        + " bytes) arrived with other bytes than were lent");
                }
            }
            delivered.set(seq + 1);
        });
        return from.context().startpoint(sink.startpoint().toText());
    }

    /** Lends buffers in turn, each again only once it came back, and checks what came back when. */
    private final class Lender {
        final ByteBuffer[] buffers = new ByteBuffer[BUFFERS];
        final Semaphore[] free = new Semaphore[BUFFERS];
        final AtomicInteger released = new AtomicInteger();
        final MessageBuffer message;

        Lender(EmbeddedContext from) {
            for (int i = 0; i < BUFFERS; i++) {
                buffers[i] = i % 2 == 0 ? ByteBuffer.allocateDirect(LENT) : ByteBuffer.allocate(LENT);
                free[i] = new Semaphore(1);
            }
            message = from.context().allocateBuffer(16);
        }

        void send(Startpoint to, long seq) throws InterruptedException {
            int i = (int) (seq % BUFFERS);
            if (!free[i].tryAcquire(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                fail("buffer " + i + " did not come back within " + WAIT + " of lending it again for RSR " + seq
                    + "; " + delivered.get() + " delivered, " + released.get() + " released");
            }
            ByteBuffer b = buffers[i];
            b.put(0, pattern(seq));
            message.clear().putLong(seq).putLent(b, 0, LENT, () -> cameBack(i, seq));
            to.send(SINK, message);
        }

        private void cameBack(int i, long seq) {
            if (arrived.get() <= seq && problems.size() < 10) {
                problems.add("the bytes of RSR " + seq + " came back before it arrived");
            }
            buffers[i].put(0, new byte[LENT]); // scribbled over: a later send from them would show
            released.incrementAndGet();
            free[i].release();
        }

        /** Clears the message, so it no longer holds the last loan, and waits for every loan to come back. */
        void awaitAllBack(long sent) {
            message.clear();
            Await.until(() -> released.get() == sent, WAIT,
                () -> released.get() + " of " + sent + " loans came back, " + delivered.get() + " delivered");
        }
    }

    @Test
    void lentBytesArriveIntactAndComeBackOnlyOnceTheirRsrWasAcknowledged() throws Exception {
        PipeMethod pipeA = new PipeMethod(network, "pipe");
        EmbeddedContext a = open(Map.of()).add(pipeA, 10);
        EmbeddedContext b = open(Map.of()).add(new PipeMethod(network, "pipe"), 10);
        Startpoint to = sink(b, a);
        Lender lender = new Lender(a);

        int count = 400;
        for (long seq = 0; seq < count; seq++) {
            lender.send(to, seq);
        }
        lender.awaitAllBack(count);

        assertEquals(List.of(), problems);
        assertEquals(count, delivered.get());
        assertTrue(pipeA.ackRequests.size() >= count, "each RSR with lent bytes asks for its acknowledgement: "
            + pipeA.ackRequests.size() + " requests for " + count + " RSRs");
    }

    @Test
    void lentBytesAreSentAgainFromWhereTheyAreWhenTheLinkMoves() throws Exception {
        EmbeddedContext a = open(Map.of()).add(new PipeMethod(network, "slow"), 20);
        EmbeddedContext b = open(Map.of()).add(new PipeMethod(network, "fast"), 10)
            .add(new PipeMethod(network, "slow"), 20);
        Startpoint to = sink(b, a);
        Lender lender = new Lender(a);

        long seq = 0;
        for (int cycle = 0; cycle < 10; cycle++) {
            PipeMethod fast = new PipeMethod(network, "fast");
            a.add(fast, 10);
            for (int i = 0; i < 40; i++) {
                lender.send(to, seq++);
            }
            a.remove(fast); // closes its pipes: frames queued in them are gone, and go again on slow
            for (int i = 0; i < 40; i++) {
                lender.send(to, seq++);
            }
        }
        lender.awaitAllBack(seq);

        assertEquals(List.of(), problems);
        assertEquals(seq, delivered.get());
    }

    @Test
    void lentBytesThroughATransformArriveIntact() throws Exception {
        EmbeddedContext a = open(Map.of()).add(new PipeMethod(network, "pipe"), 10).add(new ChecksumTransform("sum"));
        EmbeddedContext b = open(Map.of("table", "sum/pipe")).add(new PipeMethod(network, "pipe"), 10)
            .add(new ChecksumTransform("sum"));
        Startpoint to = sink(b, a);
        Lender lender = new Lender(a);

        for (long seq = 0; seq < 50; seq++) {
            lender.send(to, seq);
        }
        lender.awaitAllBack(50);

        assertEquals(List.of(), problems);
        assertTrue(to.explain().toString().contains("sum/pipe"), "sent through the transform: " + to.explain());
    }

    @Test
    void lentBytesDeliveredInTheSameContextOrSmallComeBackBeforeTheSendReturns() {
        EmbeddedContext a = open(Map.of()).add(new PipeMethod(network, "pipe"), 10);
        EmbeddedContext b = open(Map.of()).add(new PipeMethod(network, "pipe"), 10);
        AtomicInteger back = new AtomicInteger();
        List<Integer> lengths = new CopyOnWriteArrayList<>();
        Endpoint here = a.context().createEndpoint().register(SINK, Delivery.INLINE, (e, m) -> lengths.add(m.length()));
        Endpoint there = b.context().createEndpoint().register(SINK, Delivery.INLINE, (e, m) -> lengths.add(m.length()));
        ByteBuffer bytes = ByteBuffer.allocateDirect(LENT);
        MessageBuffer m = a.context().allocateBuffer(16);

        here.startpoint().send(SINK, m.putLong(1).putLent(bytes, 0, LENT, back::incrementAndGet));
        assertEquals(1, back.get(), "delivered in this context: the bytes were copied and came back at once");
        a.context().startpoint(there.startpoint().toText())
            .send(SINK, m.clear().putLong(2).putLent(bytes, 0, 1000, back::incrementAndGet));
        assertEquals(2, back.get(), "small: kept as a copy, so the bytes came back at once");

        Await.until(() -> lengths.size() == 2, WAIT, () -> "delivered " + lengths);
        assertEquals(List.of(8 + LENT, 8 + 1000), lengths);
    }

    @Test
    void lentBytesComeBackWhenTheContextClosesBeforeThePeerAcknowledged() throws Exception {
        EmbeddedContext a = open(Map.of()).add(new PipeMethod(network, "pipe"), 10);
        EmbeddedContext b = open(Map.of()).add(new PipeMethod(network, "pipe"), 10);
        CountDownLatch arrived = new CountDownLatch(1);
        CountDownLatch hold = new CountDownLatch(1);
        // The acknowledgement goes out once the handler returns, which it does not until the end.
        Endpoint stuck = holding(b, arrived::countDown, hold);
        AtomicInteger back = new AtomicInteger();
        MessageBuffer m = a.context().allocateBuffer(16).putLong(1)
            .putLent(ByteBuffer.allocate(LENT), 0, LENT, back::incrementAndGet);
        try {
            a.context().startpoint(stuck.startpoint().toText()).send(SINK, m);
            assertTrue(arrived.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "the RSR did not arrive");
            m.clear();
            assertEquals(0, back.get(), "unacknowledged: the context still holds the bytes");

            a.close();

            assertEquals(1, back.get(), "closed: the bytes came back");
        } finally {
            hold.countDown();
        }
    }

    @Test
    void lentBytesSentToTwoPeersAtOnceComeBackOnceBothAcknowledged() throws Exception {
        EmbeddedContext a = open(Map.of()).add(new PipeMethod(network, "pipe"), 10);
        List<EmbeddedContext> peers = List.of(open(Map.of()).add(new PipeMethod(network, "pipe"), 10),
            open(Map.of()).add(new PipeMethod(network, "pipe"), 10));
        CountDownLatch hold = new CountDownLatch(1);
        AtomicInteger arrived = new AtomicInteger();
        Startpoint both = null;
        for (int i = 0; i < peers.size(); i++) {
            // The first peer's acknowledgement waits for its handler.
            Endpoint sink = holding(peers.get(i), arrived::incrementAndGet, i == 0 ? hold : new CountDownLatch(0));
            Startpoint one = a.context().startpoint(sink.startpoint().toText());
            both = both == null ? one : both.join(one);
        }
        AtomicInteger back = new AtomicInteger();
        MessageBuffer m = a.context().allocateBuffer(16).putLong(1)
            .putLent(ByteBuffer.allocateDirect(LENT), 0, LENT, back::incrementAndGet);
        try {
            both.send(SINK, m);
            m.clear();
            Await.until(() -> arrived.get() == 2, WAIT, () -> arrived + " of 2 arrived");
            assertEquals(0, back.get(), "one peer has not acknowledged: the bytes are still lent");
        } finally {
            hold.countDown();
        }
        Await.until(() -> back.get() == 1, WAIT, () -> "the loan came back " + back.get() + " times, not once");
    }

    @Test
    void lentBytesComeBackWhenTheirFlowGivesUpOnThePeer() throws Exception {
        PipeMethod pipeA = new PipeMethod(network, "pipe");
        EmbeddedContext a = open(Map.of("abandonAfterMs", 1_000)).add(pipeA, 10);
        EmbeddedContext b = open(Map.of()).add(new PipeMethod(network, "pipe"), 10);
        CountDownLatch arrived = new CountDownLatch(1);
        CountDownLatch hold = new CountDownLatch(1);
        Endpoint stuck = holding(b, arrived::countDown, hold);
        AtomicInteger back = new AtomicInteger();
        MessageBuffer m = a.context().allocateBuffer(16).putLong(1)
            .putLent(ByteBuffer.allocate(LENT), 0, LENT, back::incrementAndGet);
        try {
            a.context().startpoint(stuck.startpoint().toText()).send(SINK, m);
            m.clear();
            assertTrue(arrived.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "the RSR did not arrive");
            assertEquals(0, back.get(), "unacknowledged: the bytes are still lent");
            a.remove(pipeA); // no way to the peer: after a second the flow drops what it keeps

            Await.until(() -> back.get() == 1, WAIT, () -> "the loan of the dropped RSR did not come back");
        } finally {
            hold.countDown();
        }
    }

    /** The bytes lent for RSR {@code seq}. */
    /**
     * An endpoint whose inline handler runs {@code onArrival}, then returns only once {@code hold}
     * opens (or after {@link #WAIT}): the RSR's acknowledgement waits for it.
     */
    private static Endpoint holding(EmbeddedContext where, Runnable onArrival, CountDownLatch hold) {
        return where.context().createEndpoint().register(SINK, Delivery.INLINE, (e, m) -> {
            onArrival.run();
            try {
                hold.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private static byte[] pattern(long seq) {
        byte[] bytes = new byte[LENT];
        long x = seq * 0x9E3779B97F4A7C15L + 1;
        for (int i = 0; i < bytes.length; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            bytes[i] = (byte) (x >>> 56);
        }
        return bytes;
    }
}
