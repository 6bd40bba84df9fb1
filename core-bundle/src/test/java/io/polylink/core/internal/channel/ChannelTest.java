package io.polylink.core.internal.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.Internals;
import io.polylink.core.internal.wire.Acknowledgement;
import io.polylink.core.internal.wire.ControlFrame;
import io.polylink.core.internal.wire.FrameHeader;
import io.polylink.core.internal.wire.FuzzFrames;
import io.polylink.spi.FrameReceiver;
import io.polylink.testkit.Await;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ChannelTest {

    @Test
    void executorHandlerReadsStartpointsWithTheTablesItsMessageArrivedWith() throws Exception {
        try (EmbeddedContext embedded = EmbeddedContext.open(4096, 1, List.of())) {
            Context context = embedded.context();
            // Hold the only handler thread, so the handler runs after the frames that follow.
            CountDownLatch gate = new CountDownLatch(1);
            Endpoint holder = context.createEndpoint().register(1, Delivery.EXECUTOR, (e, m) -> {
                try {
                    gate.await();
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
            });
            holder.startpoint().send(1, context.allocateBuffer(0));
            AtomicReference<Object> seen = new AtomicReference<>();
            CountDownLatch handled = new CountDownLatch(1);
            Endpoint endpoint = context.createEndpoint().register(1, Delivery.EXECUTOR, (e, m) -> {
                try {
                    seen.set(m.getStartpoint().targets());
                } catch (Throwable t) {
                    seen.set(t);
                } finally {
                    handled.countDown();
                }
            });
            RecordingConnection connection = new RecordingConnection(FuzzFrames.FAR_CONTEXT);
            FrameReceiver channel = connection.attachTo(Internals.channels(embedded));

            assertTrue(channel.onFrame(ByteBuffer.wrap(
                FuzzFrames.control(ControlFrame.TABLE, FuzzFrames.TCP_TABLE.bytes()))));
            assertTrue(channel.onFrame(ByteBuffer.wrap(
                FuzzFrames.data(endpoint.id(), 1, FuzzFrames.reference(7, FuzzFrames.TCP_TABLE)))));
            assertTrue(channel.onFrame(ByteBuffer.wrap(FuzzFrames.control(ControlFrame.TABLE_RESET, new byte[0]))));
            gate.countDown();

            assertTrue(handled.await(5, TimeUnit.SECONDS));
            assertEquals(List.of(new Startpoint.Target(FuzzFrames.FAR_CONTEXT, 7, FuzzFrames.TCP_TABLE.table())),
                seen.get());
            connection.close();
        }
    }

    /**
     * A flow acknowledged only when it goes quiet moves to a new connection while a look for quiet
     * is pending on the old one: the new connection looks on its own and acknowledges there.
     */
    @Test
    void aFlowThatMovedIsAcknowledgedOnItsNewConnectionWhenItGoesQuiet() {
        try (EmbeddedContext embedded = EmbeddedContext.open(Map.of("quietAckMs", "200"))) {
            AtomicInteger delivered = new AtomicInteger();
            Endpoint sink = embedded.context().createEndpoint().register(1, (e, m) -> delivered.incrementAndGet());
            RecordingConnection first = new RecordingConnection(FuzzFrames.FAR_CONTEXT);
            FrameReceiver before = first.attachTo(Internals.channels(embedded));
            assertTrue(before.onFrame(ByteBuffer.wrap(FuzzFrames.stackAnnouncement(1, ""))));
            assertTrue(before.onFrame(ByteBuffer.wrap(rsr(sink, 1))));
            first.close();

            RecordingConnection second = new RecordingConnection(FuzzFrames.FAR_CONTEXT);
            FrameReceiver after = second.attachTo(Internals.channels(embedded));
            assertTrue(after.onFrame(ByteBuffer.wrap(FuzzFrames.stackAnnouncement(1, ""))));
            assertTrue(after.onFrame(ByteBuffer.wrap(rsr(sink, 2))));

            Await.until(() -> second.sent().stream().map(ByteBuffer::wrap).anyMatch(f -> Acknowledgement.isAcknowledgement(f)
                && Acknowledgement.flowOfFrame(f) == FuzzFrames.FLOW && Acknowledgement.sequenceOfFrame(f) == 2),
                Duration.ofSeconds(5), () -> "the moved flow was never acknowledged on its new connection");
            assertEquals(2, delivered.get());
            second.close();
        }
    }

    private static byte[] rsr(Endpoint sink, int sequence) {
        return FuzzFrames.frame(FrameHeader.FLAG_SEQUENCED, 1, 1, sink.id(), sequence, new byte[0]);
    }
}
