package io.polylink.core.internal.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Descriptor;
import io.polylink.DescriptorTable;
import io.polylink.Endpoint;
import io.polylink.LinkException;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.FaultTransform;
import io.polylink.core.internal.Internals;
import io.polylink.core.internal.PipeMethod;
import io.polylink.core.internal.wire.ControlFrame;
import io.polylink.core.internal.wire.EncodedTable;
import io.polylink.core.internal.wire.FrameHeader;
import io.polylink.core.internal.wire.FuzzFrames;
import io.polylink.core.internal.wire.Handshake;
import io.polylink.core.internal.wire.Origin;
import io.polylink.core.internal.wire.StackRefusal;
import io.polylink.spi.FrameReceiver;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What one connection's peer can make a context hold, bounded by the context: descriptor tables
 * by count and bytes, control frames owed, work for refusals. Each bad peer is cut off or ignored,
 * and the context goes on serving a healthy link.
 */
class ChannelBoundsTest {

    private static final int SINK = 1;

    private final FaultTransform fault = new FaultTransform();
    private final EmbeddedContext embedded = EmbeddedContext.open().add(fault);
    private final AtomicInteger healthy = new AtomicInteger();
    private final Endpoint sink = embedded.context().createEndpoint().register(SINK, (e, m) -> healthy.incrementAndGet());
    private final LogCapture log = new LogCapture("io.polylink.core");
    private final List<RecordingConnection> connections = new ArrayList<>();

    @AfterEach
    void close() {
        connections.forEach(RecordingConnection::releaseSends);
        connections.forEach(RecordingConnection::close);
        log.close();
        embedded.close();
        Await.noThreads("polylink-");
    }

    private FrameReceiver connect(RecordingConnection connection) {
        connections.add(connection);
        return connection.attachTo(Internals.channels(embedded));
    }

    /** A new connection still delivers an RSR. */
    private void assertStillServes() {
        FrameReceiver receiver = connect(new RecordingConnection(FuzzFrames.FAR_CONTEXT));
        int before = healthy.get();
        assertTrue(receiver.onFrame(ByteBuffer.wrap(FuzzFrames.data(sink.id(), SINK, new byte[0]))));
        assertEquals(before + 1, healthy.get(), "the context no longer serves a healthy link");
    }

    /** A table of some 80 KB, told apart from others by {@code n}. */
    private static EncodedTable largeTable(int n) {
        List<Descriptor> entries = new ArrayList<>();
        for (int i = 0; i < DescriptorTable.MAX_ENTRIES; i++) {
            byte[] address = new byte[Descriptor.MAX_ADDRESS_LENGTH];
            address[0] = (byte) n;
            address[1] = (byte) (n >> 8);
            entries.add(new Descriptor("m" + i, address));
        }
        return EncodedTable.of(DescriptorTable.of(entries), Origin.UNKNOWN);
    }

    private static byte[] tableFrame(EncodedTable table) {
        return FuzzFrames.control(ControlFrame.TABLE, table.bytes());
    }

    @Test
    void aPeerAnnouncingMoreTableBytesThanItMayWithoutAResetIsCutOff() {
        FrameReceiver receiver = connect(new RecordingConnection(FuzzFrames.FAR_CONTEXT));
        int perTable = largeTable(0).bytes().length;
        int fit = ChannelSender.MAX_TABLE_BYTES / perTable;

        for (int n = 0; n < fit; n++) {
            assertTrue(receiver.onFrame(ByteBuffer.wrap(tableFrame(largeTable(n)))), "table " + n);
        }
        assertTrue(receiver.onFrame(ByteBuffer.wrap(FuzzFrames.control(ControlFrame.TABLE_RESET, new byte[0]))));
        for (int n = 0; n < fit; n++) {
            assertTrue(receiver.onFrame(ByteBuffer.wrap(tableFrame(largeTable(fit + n)))), "after a reset, table " + n);
        }
        assertFalse(receiver.onFrame(ByteBuffer.wrap(tableFrame(largeTable(2 * fit)))));

        Await.until(() -> log.lines().stream().anyMatch(l -> l.equals("closing fuzz connection to "
            + FuzzFrames.FAR_CONTEXT + ": peer announced more than 1024 descriptor tables or 1048576 bytes of them "
            + "without a reset")), Duration.ofSeconds(5), () -> "not logged: " + log.lines());
        assertStillServes();
    }

    @Test
    void aSenderResetsItsTablesBeforeThePeersBoundAndRefusesAnRsrThatWouldPassItAlone() {
        PipeMethod.Network network = new PipeMethod.Network();
        try (EmbeddedContext a = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10);
             EmbeddedContext b = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10)) {
            List<Startpoint> received = new CopyOnWriteArrayList<>();
            Endpoint inbox = b.context().createEndpoint().register(SINK, (e, m) -> {
                while (m.remaining() > 0) {
                    received.add(m.getStartpoint());
                }
            });
            Startpoint toB = a.context().startpoint(inbox.startpoint().toText());
            Startpoint carried = a.context().createEndpoint().startpoint();
            int tables = 3 * ChannelSender.MAX_TABLE_BYTES / largeTable(0).bytes().length;

            for (int n = 0; n < tables; n++) {
                int id = n;
                Startpoint large = carried.editTable(t -> largeTable(id).table());
                toB.send(SINK, a.context().allocateBuffer(64).putStartpoint(large));
            }
            Await.until(() -> received.size() == tables, Duration.ofSeconds(10),
                () -> received.size() + " of " + tables + " startpoints with large tables arrived");

            MessageBuffer tooMany = a.context().allocateBuffer(64 * tables);
            for (int n = 0; n < tables; n++) {
                int id = tables + n;
                tooMany.putStartpoint(carried.editTable(t -> largeTable(id).table()));
            }
            LinkException refused = assertThrows(LinkException.class, () -> toB.send(SINK, tooMany));
            assertTrue(refused.getMessage().contains("refers to descriptor tables beyond what a connection carries at "
                + "once (1024 tables, 1048576 bytes)"), refused.getMessage());
            toB.send(SINK, a.context().allocateBuffer(64).putStartpoint(carried));
            Await.until(() -> received.size() == tables + 1, Duration.ofSeconds(10), () -> "the link stopped");
        }
    }

    @Test
    void aPeerRepeatingRefusalsOfStacksThisSideNeverAnnouncedCostsNothing() {
        RecordingConnection connection = new RecordingConnection(FuzzFrames.FAR_CONTEXT);
        FrameReceiver receiver = connect(connection);

        for (int i = 0; i < 10_000; i++) {
            byte[] refusal = new StackRefusal(1 + i % 255, "no").encode().array();
            assertTrue(receiver.onFrame(ByteBuffer.wrap(FuzzFrames.control(ControlFrame.REFUSED, refusal))));
        }
        // A refusal of this side's own, after the flood: once it went, the control thread is past the flood.
        assertTrue(receiver.onFrame(ByteBuffer.wrap(FuzzFrames.stackAnnouncement(1, "absent"))));
        assertTrue(receiver.onFrame(ByteBuffer.wrap(FuzzFrames.frame(FrameHeader.FLAG_SEQUENCED, 1, SINK, sink.id(),
            1, new byte[0]))));
        Await.until(() -> kinds(connection).contains(ControlFrame.REFUSED), Duration.ofSeconds(10),
            () -> "this side's refusal never went");

        assertEquals(List.of(ControlFrame.REFUSED), kinds(connection), "nothing but this side's refusal was sent");
        assertStillServes();
    }

    @Test
    void aPeerAskingForHandshakesItNeverReadsIsCutOffAtTheBound() {
        fault.answerHandshakes = true;
        RecordingConnection connection = new RecordingConnection(FuzzFrames.FAR_CONTEXT);
        FrameReceiver receiver = connect(connection);
        connection.holdSends();
        byte[] name = FaultTransform.NAME.getBytes(StandardCharsets.US_ASCII);
        byte[] handshake = FuzzFrames.control(ControlFrame.HANDSHAKE,
            bytes(Handshake.encode(name, ByteBuffer.wrap(new byte[64]))));

        int taken = 0;
        while (taken <= 2 * ControlQueue.MAX_QUEUED && receiver.onFrame(ByteBuffer.wrap(handshake))) {
            taken++;
        }

        assertTrue(taken >= ControlQueue.MAX_QUEUED && taken <= ControlQueue.MAX_QUEUED + 2,
            "cut off after " + taken + " handshakes");
        Await.until(() -> log.lines().stream().anyMatch(l -> l.equals("closing fuzz connection to "
            + FuzzFrames.FAR_CONTEXT + ": fuzz connection to " + FuzzFrames.FAR_CONTEXT + ": 1024 control frames wait "
            + "for the peer to read them; it asks for answers it does not take")), Duration.ofSeconds(5),
            () -> "not logged: " + log.lines());
        connection.releaseSends();
        assertStillServes();
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    private static List<ControlFrame> kinds(RecordingConnection connection) {
        return connection.sent().stream().map(ByteBuffer::wrap)
            .map(f -> ControlFrame.of(FrameHeader.handler(f))).toList();
    }
}
