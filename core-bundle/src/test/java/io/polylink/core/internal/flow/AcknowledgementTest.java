package io.polylink.core.internal.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.Internals;
import io.polylink.core.internal.PipeMethod;
import io.polylink.core.internal.buffer.MessageBuffers;
import io.polylink.core.internal.buffer.StoreProbe;
import io.polylink.core.internal.wire.Acknowledgement;
import io.polylink.core.internal.wire.ControlFrame;
import io.polylink.core.internal.wire.FrameHeader;
import io.polylink.core.internal.wire.FuzzFrames;
import io.polylink.spi.FrameReceiver;
import io.polylink.testkit.Await;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Who sends a flow's acknowledgements, and what a stream of large RSRs keeps for reuse. */
class AcknowledgementTest {

    /** A multiple of the flow's acknowledgement interval: the last RSR asks for one too. */
    private static final int STREAM = 64 * 100;
    private static final String RECEIVING_THREAD = "polylink-test-pipe-";

    private final PipeMethod.Network network = new PipeMethod.Network();
    private final PipeMethod pipeA = new PipeMethod(network, "pipe");
    private final EmbeddedContext a = EmbeddedContext.open().add(pipeA, 10);
    private final PipeMethod pipeB = new PipeMethod(network, "pipe");
    /** Acknowledges only when asked: the tests below count and place those acknowledgements. */
    private final EmbeddedContext b = EmbeddedContext.open(Map.of("quietAckMs", 0)).add(pipeB, 10);

    @AfterEach
    void close() {
        a.close();
        b.close();
        Await.noThreads("polylink-");
    }

    @Test
    void theReceivingThreadSendsAcknowledgementsItselfWhenTheConnectionTakesThemAtOnce() {
        streamAndAwaitAcknowledged();

        assertFalse(pipeB.ackThreads.isEmpty(), "no acknowledgement sent");
        assertTrue(pipeB.ackThreads.stream().allMatch(t -> t.startsWith(RECEIVING_THREAD)),
            "acknowledgements sent by " + pipeB.ackThreads.stream().distinct().toList());
    }

    @Test
    void acknowledgementsTheConnectionWillNotTakeAtOnceGoFromTheControlThread() {
        pipeB.declineTrySend = true;

        streamAndAwaitAcknowledged();

        assertFalse(pipeB.ackThreads.isEmpty(), "no acknowledgement sent");
        assertTrue(pipeB.ackThreads.stream().allMatch(t -> t.startsWith("polylink-control-")),
            "acknowledgements sent by " + pipeB.ackThreads.stream().distinct().toList());
    }

    @Test
    void anInlineHandlersReplyCarriesTheAcknowledgementOutAheadOfIt() {
        pipeB.declineTrySend = true; // so only a reply can take it out on the receiving thread
        AtomicInteger replies = new AtomicInteger();
        Endpoint back = a.context().createEndpoint().register(1, Delivery.INLINE, (e, m) -> replies.incrementAndGet());
        Endpoint echo = b.context().createEndpoint().register(1, Delivery.INLINE, (e, m) -> {
            m.getStartpoint().send(1, b.context().allocateBuffer(0));
        });
        Startpoint toB = a.context().startpoint(echo.startpoint().toText());
        MessageBuffer ping = a.context().allocateBuffer(64).putStartpoint(back.startpoint());

        for (int i = 1; i <= 640; i++) {
            toB.send(1, ping);
            int sent = i;
            Await.until(() -> replies.get() == sent, Duration.ofSeconds(5), () -> "reply " + sent + " never came");
        }

        assertEquals(10, pipeB.ackThreads.size(), "one acknowledgement per 64 RSRs: " + pipeB.ackThreads);
        assertTrue(pipeB.ackThreads.stream().allMatch(t -> t.startsWith(RECEIVING_THREAD)),
            "acknowledgements sent by " + pipeB.ackThreads.stream().distinct().toList());
        assertEquals(0, onlyFlow(a).unacknowledged());
    }

    @Test
    void aBurstOfLargeRsrsKeepsItsCopiesForReuseAndLetsMostGoOnceIdle() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger arrived = new AtomicInteger();
        Endpoint sink = b.context().createEndpoint().register(1, Delivery.INLINE, (e, m) -> {
            await(release);
            arrived.incrementAndGet();
        });
        Startpoint toB = a.context().startpoint(sink.startpoint().toText());

        // The receiver holds the first, so 400 copies (25 MiB) wait to be acknowledged at once.
        // A buffer each, sent once: a buffer sent again would be kept by its store, not copied.
        for (int i = 0; i < 400; i++) {
            toB.send(1, a.context().allocateBuffer(64 * 1024).putRaw(new byte[64 * 1024], 0, 64 * 1024));
        }
        release.countDown();
        Await.until(() -> arrived.get() == 400, Duration.ofSeconds(10), () -> arrived.get() + " of 400 arrived");
        OutboundFlow flow = onlyFlow(a);
        // All but those sent after the last acknowledgement request (one per 64 RSRs here: at most 64).
        Await.until(() -> flow.unacknowledged() <= 64, Duration.ofSeconds(10),
            () -> flow.unacknowledged() + " still unacknowledged");
        long kept = FlowProbe.spareLargeBytes(flow);
        assertTrue(kept > 20 << 20, "kept " + kept + " bytes of 25 MiB of acknowledged copies for reuse");

        Await.until(() -> FlowProbe.spareLargeBytes(flow) <= 4 << 20, Duration.ofSeconds(10),
            () -> FlowProbe.spareLargeBytes(flow) + " bytes of spare copies still kept after sends stopped");
    }

    @Test
    void aStreamOfLargeRsrsAsksForAnAcknowledgementOnlyEverySixteenth() {
        AtomicInteger arrived = new AtomicInteger();
        Endpoint sink = b.context().createEndpoint().register(1, Delivery.INLINE, (e, m) -> arrived.incrementAndGet());
        Startpoint toB = a.context().startpoint(sink.startpoint().toText());
        MessageBuffer large = a.context().allocateBuffer(1 << 20).putRaw(new byte[1 << 20], 0, 1 << 20);

        OutboundFlow[] flow = new OutboundFlow[1];
        for (int i = 1; i <= 49; i++) {
            toB.send(1, large);
            if (i % 16 == 1 && i > 1) {
                // Past half the pending bound (32 MiB) every RSR would ask: each answer comes first.
                flow[0] = onlyFlow(a);
                Await.until(() -> flow[0].unacknowledged() == 0, Duration.ofSeconds(10),
                    () -> flow[0].unacknowledged() + " unacknowledged after an RSR asked");
            }
        }

        Await.until(() -> arrived.get() == 49, Duration.ofSeconds(10), () -> arrived.get() + " of 49 arrived");
        // Numbered from 1: the RSR after each 16 MiB asks. At 8 MiB (before) every eighth asked, at
        // 2 MiB every fourth, at 1 MiB every one.
        assertEquals(List.of(17, 33, 49), pipeA.ackRequests, "RSRs asking");
    }

    @Test
    void aBufferRefilledForEachLargeRsrCyclesPooledStoresThatShrinkOnceIdle() {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger arrived = new AtomicInteger();
        List<String> damaged = new java.util.concurrent.CopyOnWriteArrayList<>();
        Endpoint sink = b.context().createEndpoint().register(1, Delivery.INLINE, (e, m) -> {
            await(release);
            int seq = m.getInt();
            byte[] body = new byte[m.remaining()];
            m.getRaw(body, 0, body.length);
            if (seq != arrived.get() || body[0] != (byte) seq || body[body.length - 1] != (byte) (seq >> 8)) {
                damaged.add("RSR " + arrived.get() + " arrived as " + seq);
            }
            arrived.incrementAndGet();
        });
        Startpoint toB = a.context().startpoint(sink.startpoint().toText());
        MessageBuffer large = a.context().allocateBuffer(256 * 1024);
        byte[] body = new byte[256 * 1024 - 4];
        MessageBuffers buffers = Internals.buffers(a);

        // The receiver holds the first: the refilled buffer moves to a new store for each send.
        for (int i = 0; i < 100; i++) {
            Arrays.fill(body, (byte) i);
            body[body.length - 1] = (byte) (i >> 8);
            toB.send(1, large.clear().putInt(i).putRaw(body, 0, body.length));
        }
        assertEquals(0, StoreProbe.pooledBytes(buffers), "stores waiting for acknowledgement are not in the pool");
        release.countDown();
        Await.until(() -> arrived.get() == 100, Duration.ofSeconds(10), () -> arrived.get() + " of 100 arrived");
        assertEquals(List.of(), damaged);
        OutboundFlow flow = onlyFlow(a);
        Await.until(() -> flow.unacknowledged() <= 64, Duration.ofSeconds(10),
            () -> flow.unacknowledged() + " still unacknowledged");
        assertTrue(StoreProbe.pooledBytes(buffers) >= 30L * 256 * 1024, StoreProbe.pooledBytes(buffers) + " bytes of acknowledged stores pooled");
        assertEquals(256 * 1024, FlowProbe.spareLargeBytes(flow), "only the first send was copied");
        Await.until(() -> StoreProbe.pooledBytes(buffers) <= StoreProbe.IDLE_BYTES, Duration.ofSeconds(10),
            () -> StoreProbe.pooledBytes(buffers) + " bytes of stores still pooled after sends stopped");
    }

    @Test
    void aBurstTheSenderAskedNothingAboutIsAcknowledgedOnceTheFlowIsQuiet() {
        PipeMethod pipeC = new PipeMethod(network, "pipe");
        try (EmbeddedContext c = EmbeddedContext.open().add(pipeC, 10)) {
            AtomicInteger arrived = new AtomicInteger();
            Endpoint sink = c.context().createEndpoint().register(1, (e, m) -> arrived.incrementAndGet());
            Startpoint toC = a.context().startpoint(sink.startpoint().toText());
            MessageBuffer message = a.context().allocateBuffer(8);

            // Far below the 64 RSRs or 16 MiB after which the sender asks.
            for (long i = 0; i < 10; i++) {
                toC.send(1, message.clear().putLong(i));
            }

            Await.until(() -> arrived.get() == 10, Duration.ofSeconds(10), () -> arrived.get() + " of 10 arrived");
            OutboundFlow flow = onlyFlow(a);
            Await.until(() -> flow.unacknowledged() == 0, Duration.ofSeconds(10),
                () -> flow.unacknowledged() + " of 10 RSRs still unacknowledged after the flow went quiet");
            assertFalse(pipeC.ackThreads.isEmpty(), "no acknowledgement sent");
        }
    }

    @Test
    void aReceiverThatClosesAcknowledgesWhatItDelivered() {
        AtomicInteger arrived = new AtomicInteger();
        Endpoint sink = b.context().createEndpoint().register(1, (e, m) -> arrived.incrementAndGet());
        Startpoint toB = a.context().startpoint(sink.startpoint().toText());
        MessageBuffer message = a.context().allocateBuffer(8);
        for (long i = 0; i < 10; i++) {
            toB.send(1, message.clear().putLong(i)); // far below what makes the sender ask
        }
        Await.until(() -> arrived.get() == 10, Duration.ofSeconds(10), () -> arrived.get() + " of 10 arrived");
        OutboundFlow flow = onlyFlow(a);
        assertEquals(10, flow.unacknowledged(), "b acknowledges only when asked, and nothing asked");

        b.close();

        Await.until(() -> flow.unacknowledged() == 0, Duration.ofSeconds(10),
            () -> flow.unacknowledged() + " of the 10 RSRs b delivered still unacknowledged after b closed");
    }

    /**
     * tcp's sending end of a bulk stream reads its socket between writes and offers what it reads
     * aside, off the receiving thread. The core must take the acknowledgements there, and decline
     * everything else, the replies here, which then arrive through the receiving thread.
     */
    @Test
    void acknowledgementsAreTakenAsideAndEverythingElseIsDeclined() {
        pipeB.offerAside = true;
        AtomicInteger replies = new AtomicInteger();
        Endpoint back = a.context().createEndpoint().register(1, (e, m) -> replies.incrementAndGet());
        AtomicInteger arrived = new AtomicInteger();
        Endpoint sink = b.context().createEndpoint().register(1, Delivery.INLINE, (e, m) -> {
            if (arrived.incrementAndGet() % 64 == 0) {
                m.getStartpoint().send(1, b.context().allocateBuffer(8).putLong(arrived.get()));
            }
        });
        Startpoint toB = a.context().startpoint(sink.startpoint().toText());
        MessageBuffer message = a.context().allocateBuffer(64).putStartpoint(back.startpoint());

        for (int i = 0; i < STREAM; i++) {
            toB.send(1, message);
        }

        Await.until(() -> replies.get() == STREAM / 64, Duration.ofSeconds(20),
            () -> arrived.get() + " of " + STREAM + " arrived, " + replies.get() + " replies of " + STREAM / 64);
        OutboundFlow flow = onlyFlow(a);
        Await.until(() -> flow.unacknowledged() == 0, Duration.ofSeconds(10),
            () -> flow.unacknowledged() + " RSRs still unacknowledged");
        assertFalse(pipeB.takenAside.isEmpty(), "no acknowledgement was taken aside");
        assertEquals(List.of("ack"), pipeB.takenAside.stream().distinct().toList(), "frames taken aside");
        assertTrue(pipeB.declinedAside.get() >= STREAM / 64, pipeB.declinedAside.get() + " frames declined aside");
    }

    @Test
    void onlyWellFormedAcknowledgementsAreTakenAside() {
        Startpoint toB = a.context().startpoint(b.context().createEndpoint().register(1, (e, m) -> { }).startpoint().toText());
        toB.send(1, a.context().allocateBuffer(8).putLong(1));
        OutboundFlow flow = onlyFlow(a);
        FrameReceiver receiver = pipeA.receiverFrom(b.context().id());
        byte[] payload = ByteBuffer.allocate(Acknowledgement.LENGTH).putLong(flow.id()).putInt(1).array();
        byte[] longer = Arrays.copyOf(payload, payload.length + 1);
        int ack = ControlFrame.ACK.code();

        assertFalse(receiver.offerAside(wrap(FuzzFrames.frame(FrameHeader.FLAG_CONTROL, 1, ack, 0, payload))), "on a stack");
        assertFalse(receiver.offerAside(wrap(FuzzFrames.frame(FrameHeader.FLAG_CONTROL, 0, ack, 0, longer))), "too long");
        assertFalse(receiver.offerAside(wrap(FuzzFrames.control(ControlFrame.TABLE_RESET, payload))), "a reset");
        assertFalse(receiver.offerAside(wrap(FuzzFrames.data(1, 1, payload))), "a data frame");
        byte[] otherVersion = FuzzFrames.control(ControlFrame.ACK, payload);
        otherVersion[0] += 0x10;
        assertFalse(receiver.offerAside(wrap(otherVersion)), "another version");
        byte[] truncated = Arrays.copyOf(FuzzFrames.control(ControlFrame.ACK, payload), FrameHeader.LENGTH + 4);
        assertFalse(receiver.offerAside(wrap(truncated)), "truncated");
        assertEquals(1, flow.unacknowledged(), "a declined frame moved the flow");

        assertTrue(receiver.offerAside(wrap(FuzzFrames.control(ControlFrame.ACK, payload))), "a well-formed one");
        assertEquals(0, flow.unacknowledged());
    }

    /** Mid-array, as a method's read buffer holds it. */
    private static ByteBuffer wrap(byte[] frame) {
        byte[] room = new byte[frame.length + 6];
        System.arraycopy(frame, 0, room, 3, frame.length);
        return ByteBuffer.wrap(room, 3, frame.length);
    }

    private void streamAndAwaitAcknowledged() {
        AtomicInteger arrived = new AtomicInteger();
        Endpoint sink = b.context().createEndpoint().register(1, (e, m) -> arrived.incrementAndGet());
        Startpoint toB = a.context().startpoint(sink.startpoint().toText());
        MessageBuffer message = a.context().allocateBuffer(8);
        for (long i = 0; i < STREAM; i++) {
            toB.send(1, message.clear().putLong(i));
        }
        Await.until(() -> arrived.get() == STREAM, Duration.ofSeconds(20), () -> arrived.get() + " of " + STREAM);
        OutboundFlow flow = onlyFlow(a);
        Await.until(() -> flow.unacknowledged() == 0, Duration.ofSeconds(10),
            () -> flow.unacknowledged() + " RSRs still unacknowledged");
    }

    private static OutboundFlow onlyFlow(EmbeddedContext context) {
        return FlowProbe.onlyFlow(Internals.flows(context));
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS), "never released");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
