package io.polylink.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.MalformedMessageException;
import io.polylink.MessageBuffer;
import io.polylink.PolylinkException;
import io.polylink.Startpoint;
import io.polylink.core.internal.endpoint.SystemEndpoint;
import io.polylink.core.internal.naming.DirectoryNameRegistry;
import io.polylink.core.internal.wire.EncodedTable;
import io.polylink.core.internal.wire.FrameHeader;
import io.polylink.core.internal.wire.StackAnnouncement;
import io.polylink.core.internal.wire.StartpointCodec;
import io.polylink.testkit.Await;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Three contexts in one JVM joined by the pipe test method. */
class ContextsOverPipeTest {

    private final PipeMethod.Network network = new PipeMethod.Network();
    private final EmbeddedContext a = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10);
    private final PipeMethod pipeB = new PipeMethod(network, "pipe");
    private final EmbeddedContext b = EmbeddedContext.open().add(pipeB, 10);
    private final EmbeddedContext c = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10);

    @AfterEach
    void close() {
        a.close();
        b.close();
        c.close();
        Await.noThreads("polylink-");
    }

    private static Startpoint in(EmbeddedContext where, Startpoint s) {
        return where.context().startpoint(s.toText());
    }

    @Test
    void tenThousandRsrsArriveOnceAndInOrder() {
        List<Long> seen = new CopyOnWriteArrayList<>();
        Endpoint sink = b.context().createEndpoint().register(1, (e, m) -> seen.add(m.getLong()));
        Startpoint s = in(a, sink.startpoint());
        MessageBuffer message = a.context().allocateBuffer(8);

        for (long i = 0; i < 10_000; i++) {
            s.send(1, message.clear().putLong(i));
        }

        Await.until(() -> seen.size() >= 10_000, Duration.ofSeconds(20), () -> seen.size() + " of 10000 arrived");
        for (int i = 0; i < 10_000; i++) {
            assertEquals(i, seen.get(i), "RSR " + i);
        }
        assertEquals(10_000, seen.size());
    }

    @Test
    void aStartpointsTableTravelsOncePerConnectionThenAsAReference() {
        List<Startpoint> received = new CopyOnWriteArrayList<>();
        Endpoint inbox = b.context().createEndpoint().register(1, (e, m) -> received.add(m.getStartpoint()));
        Startpoint toB = in(a, inbox.startpoint());
        Startpoint carried = a.context().createEndpoint().startpoint();
        EncodedTable table = Internals.installed(a).table();
        int tableBytes = table.bytes().length;
        MessageBuffer message = a.context().allocateBuffer(64).putStartpoint(carried);

        long before = wireBytes();
        toB.send(1, message);
        Await.until(() -> received.size() == 1, Duration.ofSeconds(5), () -> "first startpoint not received");
        long first = wireBytes() - before;
        toB.send(1, message);
        Await.until(() -> received.size() == 2, Duration.ofSeconds(5), () -> "second startpoint not received");
        long second = wireBytes() - before - first;

        int reference = StartpointCodec.referenceLength(1);
        assertEquals(29, reference);
        assertEquals(FrameHeader.MAX_LENGTH + reference, second, "later sends carry only the reference");
        int announcement = FrameHeader.LENGTH + new StackAnnouncement(1, 0, 1, table.origin(), "").encode().remaining();
        assertEquals(second + FrameHeader.LENGTH + tableBytes + announcement, first,
            "the first send also carries the table and the flow's announcement");
        System.out.printf("startpoint on the wire: first send %d bytes (frame %d + table frame %d), later %d%n",
            first, second, first - second, second);
        assertEquals(received.get(0).targets(), carried.targets());
    }

    private long wireBytes() {
        return pipeSentBytes();
    }

    private long pipeSentBytes() {
        return a.method("pipe").statistics().bytesSent();
    }

    @Test
    void aStartpointForwardedThroughAThirdContextStillReachesItsEndpoint() {
        List<String> atA = new CopyOnWriteArrayList<>();
        Endpoint home = a.context().createEndpoint().register(9, (e, m) -> atA.add(m.getString()));
        Endpoint atC = c.context().createEndpoint().register(1, (e, m) -> {
            Startpoint back = m.getStartpoint();
            back.send(9, c.context().allocateBuffer(16).putString("from c"));
        });
        Endpoint atB = b.context().createEndpoint().register(1, (e, m) -> {
            Startpoint forward = m.getStartpoint();
            Startpoint toC = m.getStartpoint();
            toC.send(1, b.context().allocateBuffer(64).putStartpoint(forward));
        });
        Startpoint toB = in(a, atB.startpoint());
        Startpoint cFromA = in(a, atC.startpoint());

        toB.send(1, a.context().allocateBuffer(128).putStartpoint(home.startpoint()).putStartpoint(cFromA));

        Await.until(() -> atA.size() == 1, Duration.ofSeconds(5), () -> "reply through c never came");
        assertEquals(List.of("from c"), atA);
    }

    @Test
    void garbageOnAConnectionClosesItAndTheNextSendReconnects() {
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Endpoint sink = b.context().createEndpoint().register(1, (e, m) -> seen.add(m.getInt()));
        Endpoint other = c.context().createEndpoint().register(1, (e, m) -> seen.add(1000 + m.getInt()));
        Startpoint toB = in(a, sink.startpoint());
        Startpoint toC = in(a, other.startpoint());
        toB.send(1, a.context().allocateBuffer(4).putInt(1));
        Await.until(() -> seen.contains(1), Duration.ofSeconds(5), () -> "first RSR lost");
        PipeMethod.End end = (PipeMethod.End) a.method("pipe").connect(b.context().id(), null, java.util.Map.of());
        long errorsBefore = b.context().statistics().errors();

        end.inject(ByteBuffer.wrap("GET / HTTP/1.1\r\n\r\n".getBytes()));

        Await.until(() -> !end.isOpen(), Duration.ofSeconds(5), () -> "connection carrying garbage stayed open");
        assertEquals(errorsBefore + 1, b.context().statistics().errors());
        toC.send(1, a.context().allocateBuffer(4).putInt(2));
        toB.send(1, a.context().allocateBuffer(4).putInt(3));
        Await.until(() -> seen.containsAll(List.of(1002, 3)), Duration.ofSeconds(5), () -> "after garbage: " + seen);
    }

    @Test
    void aFrameForAnUnknownEndpointIsCountedAndTheConnectionStaysUp() {
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Endpoint sink = b.context().createEndpoint().register(1, (e, m) -> seen.add(m.getInt()));
        Startpoint good = in(a, sink.startpoint());
        Endpoint gone = b.context().createEndpoint();
        Startpoint stale = in(a, gone.startpoint());
        gone.close();

        stale.send(1, a.context().allocateBuffer(4).putInt(1));
        good.send(1, a.context().allocateBuffer(4).putInt(2));

        Await.until(() -> seen.contains(2), Duration.ofSeconds(5), () -> "good RSR lost after a stale one");
        assertEquals(1, b.context().statistics().errors());
    }

    @Test
    void aReferenceToATableNeverSentIsAMalformedMessage() {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Endpoint sink = b.context().createEndpoint().register(1, (e, m) -> {
            try {
                m.getStartpoint();
            } catch (MalformedMessageException expected) {
                failure.set(expected);
            }
        });
        MessageBuffer forged = a.context().allocateBuffer(64);
        forged.putByte((byte) 1).putLong(1).putLong(2).putInt(3).putLong(0x1234);

        in(a, sink.startpoint()).send(1, forged);

        Await.until(() -> failure.get() != null, Duration.ofSeconds(5), () -> "no error for a forged reference");
        assertTrue(failure.get().getMessage().contains("descriptor table 1234"), failure.get().getMessage());
        assertTrue(failure.get().getMessage().contains("never carried"), failure.get().getMessage());
    }

    @Test
    void publishAndLookupThroughTheDirectoryRegistry(@TempDir Path dir) throws Exception {
        DirectoryNameRegistry registry = new DirectoryNameRegistry(dir);
        a.registry(registry);
        b.registry(registry);
        List<String> seen = new CopyOnWriteArrayList<>();
        Endpoint service = b.context().createEndpoint().register(1, (e, m) -> seen.add(m.getString()));

        b.context().publish("echo.service", service.startpoint());
        Startpoint found = a.context().lookup("echo.service").orElseThrow();
        found.send(1, a.context().allocateBuffer(8).putString("hi"));

        Await.until(() -> seen.contains("hi"), Duration.ofSeconds(5), () -> "RSR via looked-up startpoint lost");
        assertTrue(Files.exists(dir.resolve("echo.service.startpoint")));
        assertFalse(a.context().lookup("absent").isPresent());
        PolylinkException bad = assertThrows(PolylinkException.class, () -> a.context().lookup("../etc/passwd"));
        assertTrue(bad.getMessage().startsWith("invalid name '../etc/passwd'"), bad.getMessage());
        b.context().unpublish("echo.service");
        assertFalse(a.context().lookup("echo.service").isPresent());
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "no temporary files left");
        }
    }

    @Test
    void transformedStacksShareAConnectionWithPlainOnesAndHandshakesComeFirst() {
        ChecksumTransform crcA = new ChecksumTransform("crc");
        ChecksumTransform crcB = new ChecksumTransform("crc");
        a.add(crcA);
        b.add(crcB);
        List<String> seen = new CopyOnWriteArrayList<>();
        Endpoint sink = b.context().createEndpoint().register(1, (e, m) -> seen.add(m.getString()));
        Startpoint plain = in(a, sink.startpoint());
        Startpoint checked = in(a, sink.startpoint()).editTable(t -> t.insert(0,
            new io.polylink.Descriptor("crc/pipe", t.entries().stream()
                .filter(d -> d.stack().equals("pipe")).findFirst().orElseThrow().address())));

        for (int i = 0; i < 100; i++) {
            plain.send(1, a.context().allocateBuffer(8).putString("p" + i));
            checked.send(1, a.context().allocateBuffer(8).putString("c" + i));
        }

        Await.until(() -> seen.size() == 200, Duration.ofSeconds(5), () -> seen.size() + " of 200 arrived");
        assertEquals("crc/pipe", checked.explain().get(0).chosen().orElseThrow().descriptor().stack());
        assertEquals(List.of("p0", "c0", "p1", "c1"), seen.subList(0, 4), "one connection, in order");
        assertEquals(0, b.context().statistics().errors(), "no frame overtook its handshake");
        assertEquals(1, crcB.openSessions.get(), "the receiver opened its session from the handshake");
    }

    /**
     * The receiver's transform leaves under traffic: it refuses the stack rather than close the
     * connection, the sender's link moves to plain pipe and sends the dropped RSRs again, and
     * returns to the transformed stack once the receiver has the transform back.
     */
    @Test
    void aStackTheReceiverCannotDecodeAnyMoreIsRefusedAndTheLinkMovesAndReturns() {
        a.add(new ChecksumTransform("crc"));
        ChecksumTransform crcB = new ChecksumTransform("crc");
        b.add(crcB);
        List<Long> seen = new CopyOnWriteArrayList<>();
        Endpoint sink = b.context().createEndpoint().register(1, (e, m) -> seen.add(m.getLong()));
        Startpoint checked = in(a, sink.startpoint()).editTable(t -> t.insert(0,
            new io.polylink.Descriptor("crc/pipe", t.entries().stream()
                .filter(d -> d.stack().equals("pipe")).findFirst().orElseThrow().address())));
        long[] sent = {0};
        MessageBuffer m = a.context().allocateBuffer(8);
        java.util.function.Supplier<String> stack = () -> checked.explain().get(0).chosen().orElseThrow()
            .descriptor().stack();
        java.util.function.BooleanSupplier sendOne = () -> {
            checked.send(1, m.clear().putLong(sent[0]++));
            return true;
        };
        sendOne.getAsBoolean();
        Await.until(() -> seen.size() == 1, Duration.ofSeconds(5), () -> "first RSR lost");
        assertEquals("crc/pipe", stack.get());
        PipeMethod.End end = (PipeMethod.End) a.method("pipe").connect(b.context().id(), null, java.util.Map.of());

        b.remove(crcB);
        Await.until(() -> sendOne.getAsBoolean() && stack.get().equals("pipe"), Duration.ofSeconds(10),
            () -> "the link stayed on " + stack.get() + " after the receiver lost crc");
        assertTrue(end.isOpen(), "the refusal closed the connection");
        // Back, the receiver's new session misses the handshake the sender's session made long
        // ago; that closes the connection and both start afresh, as before this refusal existed.
        b.add(new ChecksumTransform("crc"));
        Await.until(() -> sendOne.getAsBoolean() && stack.get().equals("crc/pipe"), Duration.ofSeconds(20),
            () -> "the link did not return to crc/pipe: " + stack.get());

        Await.until(() -> seen.size() == sent[0], Duration.ofSeconds(10),
            () -> seen.size() + " of " + sent[0] + " RSRs arrived");
        assertEquals(java.util.stream.LongStream.range(0, sent[0]).boxed().toList(), seen, "in order, once each");
    }

    @Test
    void aCorruptedTransformedFrameIsRejectedAndTheConnectionReplaced() {
        ChecksumTransform crcA = new ChecksumTransform("crc");
        a.add(crcA);
        b.add(new ChecksumTransform("crc"));
        List<String> seen = new CopyOnWriteArrayList<>();
        Endpoint sink = b.context().createEndpoint().register(1, (e, m) -> seen.add(m.getString()));
        Startpoint checked = in(a, sink.startpoint()).pin("crc/pipe").editTable(t -> t.insert(0,
            new io.polylink.Descriptor("crc/pipe", t.entries().stream()
                .filter(d -> d.stack().equals("pipe")).findFirst().orElseThrow().address())));
        checked.send(1, a.context().allocateBuffer(8).putString("first"));
        Await.until(() -> seen.contains("first"), Duration.ofSeconds(5), () -> "first lost");
        PipeMethod.End end = (PipeMethod.End) a.method("pipe").connect(b.context().id(), null, java.util.Map.of());

        ByteBuffer forged = ByteBuffer.allocate(12 + 9);
        forged.put(0, (byte) 0x10).put(1, (byte) 1).putShort(2, (short) 1).putInt(4, sink.id()).putInt(8, 9);
        end.inject(forged);

        Await.until(() -> !end.isOpen(), Duration.ofSeconds(5), () -> "forged frame accepted");
        assertEquals(1, b.context().statistics().errors());
        checked.send(1, a.context().allocateBuffer(8).putString("after"));
        Await.until(() -> seen.contains("after"), Duration.ofSeconds(5), () -> "no new connection after the forgery");
        assertEquals(List.of("first", "after"), seen);
    }

    @Test
    void theSystemEndpointEchoesAndRelaysAStartpointThroughAThirdContext() {
        List<String> replies = new CopyOnWriteArrayList<>();
        Endpoint home = a.context().createEndpoint().register(5, (e, m) -> replies.add(m.getString()));
        Startpoint echoAtB = in(a, b.systemStartpoint());
        assertEquals(SystemEndpoint.ID, echoAtB.targets().get(0).endpoint());

        echoAtB.send(SystemEndpoint.ECHO, a.context().allocateBuffer(64)
            .putStartpoint(home.startpoint()).putInt(5).putString("echoed"));
        Startpoint echoAtCFromA = in(a, c.systemStartpoint());
        // The system endpoint sends only to contexts it has a connection with: c makes one with b, a with c.
        List<String> hellos = new CopyOnWriteArrayList<>();
        Endpoint helloAtB = b.context().createEndpoint().register(1, (e, m) -> hellos.add(m.getString()));
        Endpoint helloAtC = c.context().createEndpoint().register(1, (e, m) -> hellos.add(m.getString()));
        in(c, helloAtB.startpoint()).send(1, c.context().allocateBuffer(16).putString("c to b"));
        in(a, helloAtC.startpoint()).send(1, a.context().allocateBuffer(16).putString("a to c"));
        Await.until(() -> hellos.size() == 2, Duration.ofSeconds(5), () -> "hellos: " + hellos);
        echoAtB.send(SystemEndpoint.RELAY, a.context().allocateBuffer(128)
            .putStartpoint(echoAtCFromA).putInt(SystemEndpoint.ECHO).putStartpoint(home.startpoint())
            .putInt(5).putString("relayed via b and c"));

        Await.until(() -> replies.size() == 2, Duration.ofSeconds(5), () -> "replies: " + replies);
        // Two replies over two links (b to a, c to a): nothing orders one against the other.
        assertEquals(java.util.Set.of("echoed", "relayed via b and c"), java.util.Set.copyOf(replies));
    }

    @Test
    void closingAContextStopsItsMethodsAndTheirThreads() {
        Endpoint sink = b.context().createEndpoint().register(1, (e, m) -> { });
        in(a, sink.startpoint()).send(1, a.context().allocateBuffer(0));
        assertFalse(Await.threads("polylink-test-pipe").isEmpty());

        a.close();
        b.close();
        c.close();

        Await.noThreads("polylink-");
    }

    /**
     * A handler answers each request on the startpoint the request carries, for 200 reply
     * endpoints in two contexts: every answer reaches the endpoint its request named, once.
     */
    @Test
    void answersOnStartpointsReadFromRequestsReachTheEndpointsTheyName() {
        Endpoint echo = b.context().createEndpoint()
            .register(1, Delivery.INLINE, (e, m) -> m.getStartpoint().send(2, b.context().allocateBuffer(4).putInt(m.getInt())));
        int perContext = 100;
        int rounds = 5;
        int[][] answers = new int[2][perContext];
        List<Startpoint> replyTo = new ArrayList<>();
        List<Startpoint> toEcho = new ArrayList<>();
        for (EmbeddedContext client : List.of(a, c)) {
            int which = replyTo.size() / perContext;
            for (int i = 0; i < perContext; i++) {
                int index = i;
                replyTo.add(client.context().createEndpoint().register(2, (e, m) -> {
                    assertEquals(which * perContext + index, m.getInt(), "an answer for another endpoint");
                    synchronized (answers) {
                        answers[which][index]++;
                    }
                }).startpoint());
            }
            toEcho.add(in(client, echo.startpoint()));
        }
        List<EmbeddedContext> clients = List.of(a, c);
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < 2 * perContext; i++) {
                MessageBuffer request = clients.get(i / perContext).context().allocateBuffer(128);
                toEcho.get(i / perContext).send(1, request.putStartpoint(replyTo.get(i)).putInt(i));
            }
        }
        Await.until(() -> {
            synchronized (answers) {
                return Arrays.stream(answers).flatMapToInt(Arrays::stream).sum() == 2 * perContext * rounds;
            }
        }, Duration.ofSeconds(20), () -> "answers: " + Arrays.deepToString(answers));
        for (int[] context : answers) {
            for (int count : context) {
                assertEquals(rounds, count, "answers per reply endpoint: " + Arrays.deepToString(answers));
            }
        }
    }

    /** Two startpoints read from messages naming the same endpoint keep their settings and counts apart. */
    @Test
    void startpointsReadFromMessagesToTheSameEndpointKeepTheirSettingsApart() {
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint target = a.context().createEndpoint().register(2, (e, m) -> seen.add(m.getInt())).startpoint();
        List<Startpoint> read = new CopyOnWriteArrayList<>();
        Endpoint inbox = b.context().createEndpoint().register(1, (e, m) -> read.add(m.getStartpoint()));
        Startpoint toB = in(a, inbox.startpoint());
        toB.send(1, a.context().allocateBuffer(64).putStartpoint(target));
        toB.send(1, a.context().allocateBuffer(64).putStartpoint(target));
        Await.until(() -> read.size() == 2, Duration.ofSeconds(10), () -> read.size() + " of 2 startpoints read");
        Startpoint first = read.get(0);
        Startpoint second = read.get(1);
        first.send(2, b.context().allocateBuffer(4).putInt(1));
        second.forbid("pipe");
        PolylinkException refused = assertThrows(PolylinkException.class,
            () -> second.send(2, b.context().allocateBuffer(4).putInt(2)));
        assertTrue(refused.getMessage().contains("pipe"), refused.getMessage());
        first.send(2, b.context().allocateBuffer(4).putInt(3));
        Await.until(() -> seen.size() == 2, Duration.ofSeconds(10), () -> "arrived: " + seen);
        assertEquals(List.of(1, 3), seen);
        assertEquals(2, first.statistics().messagesSent());
        assertEquals(0, second.statistics().messagesSent());
        assertEquals(1, second.statistics().errors());
    }
}
