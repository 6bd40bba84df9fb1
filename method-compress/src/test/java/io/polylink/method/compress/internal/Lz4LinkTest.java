package io.polylink.method.compress.internal;

import io.polylink.testkit.WireTap;
import io.polylink.testkit.SampleData;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.Descriptor;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The lz4 transform between real contexts: over {@code local}, and over tcp on 127.0.0.1. */
class Lz4LinkTest {

    private static final int MAX_MESSAGE = 1 << 20;

    private final List<EmbeddedContext> contexts = new ArrayList<>();
    private final List<WireTap> taps = new ArrayList<>();
    private final Map<EmbeddedContext, Lz4Transform> lz4 = new IdentityHashMap<>();

    /** A context with lz4 and a tapped tcp method on loopback. */
    private EmbeddedContext embedded() {
        return embedded(Map.of(), Map.of());
    }

    /**
     * @param core the core's configuration beside the message size
     * @param lz4Config lz4's configuration
     */
    private EmbeddedContext embedded(Map<String, Object> core, Map<String, Object> lz4Config) {
        WireTap tap = new WireTap(new TcpMethod(Map.of("bindAddress", "127.0.0.1")));
        Lz4Transform transform = new Lz4Transform(lz4Config);
        Map<String, Object> config = new java.util.HashMap<>(core);
        config.put("maxMessageSize", MAX_MESSAGE);
        EmbeddedContext embedded = EmbeddedContext.open(config).add(tap, 50).add(transform);
        contexts.add(embedded);
        lz4.put(embedded, transform);
        taps.add(tap);
        return embedded;
    }

    @AfterEach
    void close() {
        contexts.forEach(EmbeddedContext::close);
        Await.noThreads("polylink-");
    }

    /** A startpoint in {@code from} to {@code endpoint}, preferring {@code stack} over the endpoint's tcp. */
    private static Startpoint over(Context from, Endpoint endpoint, String stack) {
        Startpoint s = from.startpoint(endpoint.startpoint().toText());
        if (!stack.equals("tcp")) {
            s.editTable(t -> t.insert(0, new Descriptor(stack, tcpAddress(endpoint.context()))));
        }
        return s;
    }

    private static byte[] tcpAddress(Context c) {
        return c.descriptorTable().entries().stream().filter(d -> d.stack().equals("tcp"))
            .findFirst().orElseThrow().address();
    }

    private static String chosen(Startpoint s) {
        return s.explain().get(0).chosen().orElseThrow().descriptor().stack();
    }

    @Test
    void aLocalLz4StackCompressesAndDeliversIntact() {
        Context context = embedded().context();
        List<byte[]> seen = new CopyOnWriteArrayList<>();
        Endpoint endpoint = context.createEndpoint().register(1, (e, m) -> seen.add(m.getBytes()));
        Startpoint s = endpoint.startpoint().editTable(t -> t.insert(0, new Descriptor("lz4/local", new byte[0])));
        byte[] records = SampleData.records(20_000, 4);

        s.send(1, context.allocateBuffer(records.length + 4).putBytes(records));
        s.send(1, context.allocateBuffer(8).putBytes(new byte[] {1, 2, 3}));

        assertEquals("lz4/local", chosen(s));
        assertEquals(2, seen.size());
        assertArrayEquals(records, seen.get(0));
        assertArrayEquals(new byte[] {1, 2, 3}, seen.get(1));
    }

    @Test
    void plainAndLz4LinksToOnePeerRunAtOnceInOrderAndLz4ShrinksTheWire() throws Exception {
        Context a = embedded().context();
        Context b = embedded().context();
        List<String> problems = new CopyOnWriteArrayList<>();
        AtomicLong[] next = {new AtomicLong(), new AtomicLong()};
        Endpoint sink = b.createEndpoint().register(1, (e, m) -> {
            int link = m.getInt();
            long seq = m.getLong();
            byte[] body = m.getBytes();
            if (seq != next[link].get() || !java.util.Arrays.equals(body, SampleData.records(body.length, seq))) {
                problems.add("link " + link + ": at " + next[link].get() + " got " + seq);
            }
            next[link].set(seq + 1);
        });
        Startpoint plain = over(a, sink, "tcp");
        Startpoint compressed = over(a, sink, "lz4/tcp");
        int count = 400;

        Thread second = new Thread(() -> send(a, compressed, 1, count), "test-lz4-sender");
        second.start();
        send(a, plain, 0, count);
        second.join(20_000);

        Await.until(() -> next[0].get() == count && next[1].get() == count, Duration.ofSeconds(20),
            () -> next[0] + " plain and " + next[1] + " lz4 of " + count + " arrived");
        assertEquals(List.of(), problems);
        assertEquals("tcp", chosen(plain));
        assertEquals("lz4/tcp", chosen(compressed));
        long lz4Bytes = wireBytes(taps.get(0), 1);
        long plainBytes = wireBytes(taps.get(0), 0);
        assertTrue(lz4Bytes < plainBytes / 2, "lz4 frames " + lz4Bytes + " bytes, plain " + plainBytes);
    }

    @Test
    void underScopeOtherHostAPeerOnThisHostGetsPayloadsStoredAndOneOnAnotherHostCompressed() {
        Map<String, Object> otherHost = Map.of("scope", "other-host");
        EmbeddedContext a = embedded(Map.of("hostId", "host-a"), otherHost);
        EmbeddedContext sameHost = embedded(Map.of("hostId", "host-a"), otherHost);
        EmbeddedContext elsewhere = embedded(Map.of("hostId", "host-b"), otherHost);

        long toSameHost = lz4WireBytes(a, sameHost);
        long toElsewhere = lz4WireBytes(a, elsewhere);

        assertTrue(toElsewhere < toSameHost / 2, "lz4 frames to another host " + toElsewhere + " bytes, to this host "
            + toSameHost);
        assertTrue(toSameHost > 100 * 10_000, "frames to this host were compressed: " + toSameHost + " bytes");
    }

    /** @return bytes of the lz4 frames {@code from} sends {@code to}, 100 compressible RSRs of 10 kB */
    private long lz4WireBytes(EmbeddedContext from, EmbeddedContext to) {
        List<Long> arrived = new CopyOnWriteArrayList<>();
        Endpoint sink = to.context().createEndpoint().register(1, (e, m) -> arrived.add(m.getLong()));
        Startpoint s = over(from.context(), sink, "lz4/tcp").pin("lz4/tcp");
        WireTap tap = taps.get(contexts.indexOf(from));
        int before = tap.sent.size();
        MessageBuffer message = from.context().allocateBuffer(16 << 10);
        for (long i = 0; i < 100; i++) {
            s.send(1, message.clear().putLong(i).putRaw(SampleData.records(10_000, i), 0, 10_000));
        }
        Await.until(() -> arrived.size() == 100, Duration.ofSeconds(10), () -> arrived.size() + " of 100 arrived");
        return tap.sent.subList(before, tap.sent.size()).stream()
            .filter(f -> "lz4".equals(tap.transforms(f))).mapToLong(f -> f.length).sum();
    }

    private static void send(Context from, Startpoint s, int link, int count) {
        MessageBuffer message = from.allocateBuffer(8192);
        for (long i = 0; i < count; i++) {
            byte[] body = SampleData.records((int) (100 + i * 37 % 6000), i);
            s.send(1, message.clear().putInt(link).putLong(i).putBytes(body));
        }
    }

    /** Bytes of RSR frames sent with no transform (0) or with one (1). */
    private static long wireBytes(WireTap tap, int transformed) {
        return tap.sent.stream().filter(f -> tap.transforms(f) != null && tap.transforms(f).isEmpty() != (transformed == 1))
            .mapToLong(f -> f.length).sum();
    }

    @Test
    void messagesOfTheMaximumSizeCrossLz4OverTcpWhetherTheyCompressOrNot() {
        Context a = embedded().context();
        Context b = embedded().context();
        List<byte[]> seen = new CopyOnWriteArrayList<>();
        Endpoint sink = b.createEndpoint().register(1, (e, m) -> {
            byte[] body = new byte[m.remaining()];
            m.getRaw(body, 0, body.length);
            seen.add(body);
        });
        Startpoint s = over(a, sink, "lz4/tcp").pin("lz4/tcp");
        byte[] records = SampleData.records(MAX_MESSAGE, 5);
        byte[] noise = SampleData.random(MAX_MESSAGE, 6);

        s.send(1, a.allocateBuffer(MAX_MESSAGE).putRaw(records, 0, MAX_MESSAGE));
        s.send(1, a.allocateBuffer(MAX_MESSAGE).putRaw(noise, 0, MAX_MESSAGE));

        Await.until(() -> seen.size() == 2, Duration.ofSeconds(10), () -> seen.size() + " of 2 arrived");
        assertArrayEquals(records, seen.get(0));
        assertArrayEquals(noise, seen.get(1));
        assertEquals(0, b.statistics().errors());
    }

    @Test
    void removingAndAddingLz4WhileTrafficFlowsMovesTheLinkAndLosesNothing() throws Exception {
        EmbeddedContext embeddedA = embedded();
        Context a = embeddedA.context();
        Context b = embedded().context();
        AtomicLong next = new AtomicLong();
        List<String> problems = new CopyOnWriteArrayList<>();
        Endpoint sink = b.createEndpoint().register(1, (e, m) -> {
            long seq = m.getLong();
            if (seq != next.get()) {
                problems.add("expected " + next.get() + ", got " + seq);
            }
            next.set(seq + 1);
            m.getBytes();
        });
        Startpoint s = over(a, sink, "lz4/tcp");
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong sent = new AtomicLong();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<String> stacks = new CopyOnWriteArrayList<>();
        Thread sender = new Thread(() -> {
            MessageBuffer message = a.allocateBuffer(4096);
            byte[] body = SampleData.records(2000, 7);
            while (running.get()) {
                try {
                    s.send(1, message.clear().putLong(sent.get()).putBytes(body));
                    sent.incrementAndGet();
                    String stack = chosen(s);
                    if (stacks.isEmpty() || !stacks.get(stacks.size() - 1).equals(stack)) {
                        stacks.add(stack);
                    }
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }
        }, "test-lz4-sender");
        sender.start();
        Await.until(() -> sent.get() > 200, Duration.ofSeconds(10), () -> "traffic did not start");
        Lz4Transform replacement = new Lz4Transform(Map.of("minSize", "128"));
        embeddedA.remove(lz4.get(embeddedA));
        long atRemoval = sent.get();
        Await.until(() -> sent.get() > atRemoval + 200, Duration.ofSeconds(10), () -> "traffic stopped without lz4");
        embeddedA.add(replacement);
        long atReturn = sent.get();
        Await.until(() -> sent.get() > atReturn + 200, Duration.ofSeconds(10), () -> "traffic stopped after lz4 returned");
        running.set(false);
        sender.join(10_000);

        Await.until(() -> next.get() == sent.get(), Duration.ofSeconds(10), () -> next.get() + " of " + sent.get() + " arrived");
        assertEquals(List.of(), failures);
        assertEquals(List.of(), problems);
        assertEquals(List.of("lz4/tcp", "tcp", "lz4/tcp"), stacks);
        assertEquals(0, b.statistics().errors());
    }

    @Test
    void aFrameDeclaringMoreThanItsBlockYieldsClosesItsConnectionAndLaterSendsArrive() {
        tamperedFrameIsRefused(f -> bumpDeclaredLength(f, 1),
            "lz4 block from context %s over tcp decompresses to \\d+ bytes but declares \\d+");
    }

    @Test
    void aFrameDeclaringTwoGibibytesClosesItsConnectionAndLaterSendsArrive() {
        tamperedFrameIsRefused(f -> setDeclaredLength(f, 1L << 31),
            "lz4 payload from context %s over tcp declares 2147483648 decompressed bytes, more than any message may have");
    }

    /**
     * Sends a compressible RSR whose frame {@code tamper} changes on the wire, and checks that the
     * receiver refuses it with the documented reason, that the connection is replaced, and that
     * RSRs sent afterwards, on lz4 and plain links, arrive.
     */
    private void tamperedFrameIsRefused(java.util.function.UnaryOperator<byte[]> tamper, String reason) {
        Context a = embedded().context();
        Context b = embedded().context();
        List<String> seen = new CopyOnWriteArrayList<>();
        Endpoint sink = b.createEndpoint().register(1, (e, m) -> seen.add(m.getString()));
        Startpoint compressed = over(a, sink, "lz4/tcp").pin("lz4/tcp");
        Startpoint plain = over(a, sink, "tcp");
        String text = new String(SampleData.records(3000, 8), java.nio.charset.StandardCharsets.US_ASCII);
        compressed.send(1, a.allocateBuffer(4096).putString("first"));
        Await.until(() -> seen.size() == 1, Duration.ofSeconds(5), () -> "first RSR lost");
        WireTap tap = taps.get(0);

        try (LogCapture log = new LogCapture("io.polylink.core")) {
            tap.tamperNext(f -> compressedRsr(tap, f), tamper);
            compressed.send(1, a.allocateBuffer(4096).putString(text));
            Await.until(() -> b.statistics().errors() == 1, Duration.ofSeconds(5), () -> "tampered frame accepted");
            // The sender sends the RSR again, unchanged, over a new connection.
            Await.until(() -> seen.size() == 2, Duration.ofSeconds(5), () -> "tampered RSR not sent again: " + seen);
            compressed.send(1, a.allocateBuffer(4096).putString("second"));
            plain.send(1, a.allocateBuffer(64).putString("plain"));
            Await.until(() -> seen.size() == 4, Duration.ofSeconds(5), () -> "after the tampered frame: " + seen);

            // One line for the bad frame: none for the close it makes the method do.
            List<String> closing = log.lines().stream().filter(l -> l.contains("connection to " + a.id())).toList();
            assertEquals(1, closing.size(), log.lines()::toString);
            String expected = "closing tcp connection to " + a.id() + " at 127\\.0\\.0\\.1:\\d+: "
                + String.format(reason, a.id());
            assertTrue(closing.get(0).matches(expected), closing.get(0) + "\ndoes not match\n" + expected);
        }
        assertEquals(List.of("first", text, "second", "plain"), seen, "the tampered RSR came again, in order");
        assertEquals(1, b.statistics().errors());
    }

    /** An RSR frame (not control) on a transformed stack whose lz4 payload is compressed. */
    private static boolean compressedRsr(WireTap tap, byte[] frame) {
        String transforms = tap.transforms(frame);
        int at = WireTap.headerLength(frame);
        return transforms != null && !transforms.isEmpty() && frame.length > at + 5 && frame[at] == Lz4Payload.COMPRESSED;
    }

    private static byte[] bumpDeclaredLength(byte[] frame, int by) {
        java.nio.ByteBuffer f = java.nio.ByteBuffer.wrap(frame);
        int at = WireTap.headerLength(frame) + Lz4Payload.LENGTH_OFFSET;
        f.putInt(at, f.getInt(at) + by);
        return frame;
    }

    private static byte[] setDeclaredLength(byte[] frame, long declared) {
        java.nio.ByteBuffer.wrap(frame).putInt(WireTap.headerLength(frame) + Lz4Payload.LENGTH_OFFSET, (int) declared);
        return frame;
    }
}
