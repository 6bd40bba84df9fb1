package io.polylink.method.crypto.internal;

import io.polylink.testkit.WireTap;
import io.polylink.testkit.SampleData;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.Descriptor;
import io.polylink.Endpoint;
import io.polylink.LinkException;
import io.polylink.MessageBuffer;
import io.polylink.NoApplicableMethodException;
import io.polylink.PolylinkException;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.method.compress.internal.Lz4Transform;
import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import java.nio.charset.StandardCharsets;
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

/** The aead transform between real contexts: over {@code local}, and over tcp on 127.0.0.1, alone and with lz4. */
class AeadLinkTest {

    private static final int MAX_MESSAGE = 1 << 20;

    private final List<EmbeddedContext> contexts = new ArrayList<>();
    private final Map<Context, WireTap> taps = new IdentityHashMap<>();
    private final Map<Context, EmbeddedContext> embedded = new IdentityHashMap<>();
    private final Map<Context, AeadTransform> aead = new IdentityHashMap<>();

    /** A context with lz4, aead configured with {@code settings}, and a tapped tcp method on loopback. */
    private Context context(Map<String, Object> settings) {
        WireTap tap = new WireTap(new TcpMethod(Map.of("bindAddress", "127.0.0.1")));
        AeadTransform transform = SessionPair.transform(settings);
        EmbeddedContext e = EmbeddedContext.open(MAX_MESSAGE, 2, List.of())
            .add(tap, 50).add(new Lz4Transform(Map.of())).add(transform);
        contexts.add(e);
        taps.put(e.context(), tap);
        embedded.put(e.context(), e);
        aead.put(e.context(), transform);
        return e.context();
    }

    private Context context() {
        return context(Map.of("handshakeTimeoutMs", 2000));
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
            byte[] address = endpoint.context().descriptorTable().entries().stream()
                .filter(d -> d.stack().equals("tcp")).findFirst().orElseThrow().address();
            s.editTable(t -> t.insert(0, new Descriptor(stack, address)));
        }
        return s;
    }

    private static String chosen(Startpoint s) {
        return s.explain().get(0).chosen().orElseThrow().descriptor().stack();
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private void awaitClosedAtSender(Context sender) {
        Await.until(() -> taps.get(sender).openConnections() == 0, Duration.ofSeconds(5),
            () -> "the sender never saw its connection close");
    }

    @Test
    void aLocalAeadStackEncryptsAndDeliversIntact() {
        Context context = context();
        List<String> seen = new CopyOnWriteArrayList<>();
        Endpoint endpoint = context.createEndpoint().register(1, (e, m) -> seen.add(m.getString()));
        Startpoint s = endpoint.startpoint().editTable(t -> t.insert(0, new Descriptor("aead/local", new byte[0])));

        s.send(1, context.allocateBuffer(16).putString("sealed"));
        s.send(1, context.allocateBuffer(16).putString("twice"));

        assertEquals("aead/local", chosen(s));
        assertEquals(List.of("sealed", "twice"), seen);
    }

    @Test
    void plainLz4AeadAndLz4AeadLinksToOnePeerRunAtOnceAndOnlyThePlainOnesShowOnTheWire() throws Exception {
        Context a = context();
        Context b = context();
        String[] stacks = {"tcp", "lz4/tcp", "aead/tcp", "lz4+aead/tcp"};
        AtomicLong[] next = new AtomicLong[stacks.length];
        for (int i = 0; i < next.length; i++) {
            next[i] = new AtomicLong();
        }
        List<String> problems = new CopyOnWriteArrayList<>();
        Endpoint sink = b.createEndpoint().register(1, (e, m) -> {
            int link = m.getInt();
            long seq = m.getLong();
            String text = m.getString();
            if (seq != next[link].get() || !text.startsWith(marker(stacks[link], seq))) {
                problems.add(stacks[link] + ": expected " + next[link].get() + ", got " + seq + " " + text);
            }
            next[link].set(seq + 1);
        });
        Startpoint[] links = new Startpoint[stacks.length];
        for (int i = 0; i < stacks.length; i++) {
            links[i] = over(a, sink, stacks[i]).pin(stacks[i]);
        }
        int count = 300;

        Thread other = new Thread(() -> sendAll(a, links, stacks, new int[] {1, 3}, count), "test-aead-sender");
        other.start();
        sendAll(a, links, stacks, new int[] {0, 2}, count);
        other.join(20_000);

        Await.until(() -> java.util.Arrays.stream(next).allMatch(n -> n.get() == count), Duration.ofSeconds(20),
            () -> java.util.Arrays.toString(next) + " of " + count + " arrived");
        assertEquals(List.of(), problems);
        for (int i = 0; i < stacks.length; i++) {
            assertEquals(stacks[i], chosen(links[i]));
        }
        WireTap tap = taps.get(a);
        assertTrue(tap.sentContains(ascii(marker("tcp", 7))), "the plain link is readable on the wire");
        assertFalse(tap.sentContains(ascii("SECRET aead/tcp")), "aead/tcp plaintext on the wire");
        assertFalse(tap.sentContains(ascii("SECRET lz4+aead/tcp")), "lz4+aead/tcp plaintext on the wire");
        assertEquals(0, b.statistics().errors());
    }

    private static String marker(String stack, long seq) {
        return (stack.contains("aead") ? "SECRET " : "PLAIN ") + stack + " #" + seq + " ";
    }

    private static void sendAll(Context from, Startpoint[] links, String[] stacks, int[] which, int count) {
        MessageBuffer message = from.allocateBuffer(8192);
        for (long seq = 0; seq < count; seq++) {
            for (int link : which) {
                String text = marker(stacks[link], seq) + new String(SampleData.records((int) (seq * 13 % 3000), seq),
                    StandardCharsets.US_ASCII);
                links[link].send(1, message.clear().putInt(link).putLong(seq).putString(text));
            }
        }
    }

    @Test
    void messagesOfTheMaximumSizeCrossAeadAndLz4AeadOverTcp() {
        Context a = context();
        Context b = context();
        List<byte[]> seen = new CopyOnWriteArrayList<>();
        Endpoint sink = b.createEndpoint().register(1, (e, m) -> {
            byte[] body = new byte[m.remaining()];
            m.getRaw(body, 0, body.length);
            seen.add(body);
        });
        byte[] records = SampleData.records(MAX_MESSAGE, 5);
        byte[] noise = SampleData.random(MAX_MESSAGE, 6);

        for (String stack : new String[] {"aead/tcp", "lz4+aead/tcp"}) {
            Startpoint s = over(a, sink, stack).pin(stack);
            s.send(1, a.allocateBuffer(MAX_MESSAGE).putRaw(records, 0, MAX_MESSAGE));
            s.send(1, a.allocateBuffer(MAX_MESSAGE).putRaw(noise, 0, MAX_MESSAGE));
        }

        Await.until(() -> seen.size() == 4, Duration.ofSeconds(10), () -> seen.size() + " of 4 arrived");
        for (int i = 0; i < 4; i += 2) {
            assertArrayEquals(records, seen.get(i));
            assertArrayEquals(noise, seen.get(i + 1));
        }
        assertEquals(0, b.statistics().errors());
    }

    @Test
    void aPeerWithAnotherPreSharedKeyIsRefusedClearlyNothingGoesOutInPlaintextAndOtherLinksWork() {
        Context a = context();
        Context b = context(Map.of("psk", SessionPair.OTHER_PSK));
        Context c = context();
        List<String> seen = new CopyOnWriteArrayList<>();
        Endpoint atB = b.createEndpoint().register(1, (e, m) -> seen.add("b " + m.getString()));
        Endpoint atC = c.createEndpoint().register(1, (e, m) -> seen.add("c " + m.getString()));
        Startpoint secret = over(a, atB, "aead/tcp").pin("aead/tcp");

        try (LogCapture log = new LogCapture("io.polylink.core")) {
            // The transform's refusal, or, if b's close is seen first, selection's, naming it.
            io.polylink.PolylinkException refused = assertThrows(io.polylink.PolylinkException.class,
                () -> secret.send(1, a.allocateBuffer(64).putString("SECRET for b")));

            // a refuses b's hello too, unless b closed the connection before its hello left: either way
            // the message says what to check.
            String refusedHere = "aead link to context " + b.id() + " over tcp cannot send: its handshake was refused: "
                + "it does not verify with this context's pre-shared key: the peer holds another psk (or the message "
                + "was forged or changed); configure the same psk in io.polylink.method.crypto on both; the frame was "
                + "not sent";
            String refusedThere = "aead link to context " + b.id() + " over tcp cannot send: the connection closed "
                + "before the handshake completed; the peer may have refused this context's handshake: check that aead "
                + "is installed there with the same psk and cipher (its log says why); the frame was not sent";
            String all = refused.getMessage() + java.util.Arrays.stream(refused.getSuppressed())
                .map(Throwable::getMessage).collect(java.util.stream.Collectors.joining(" / ", " / ", ""));
            assertTrue(all.contains(refusedHere) || all.contains(refusedThere), all);
            Await.until(() -> log.lines().stream().anyMatch(l -> l.startsWith("closing tcp connection to " + a.id())),
                Duration.ofSeconds(5), () -> "b did not log the refusal: " + log.lines());
            String atBLog = log.lines().stream().filter(l -> l.startsWith("closing tcp connection to " + a.id()))
                .findFirst().orElseThrow();
            assertTrue(atBLog.matches("closing tcp connection to " + a.id() + " at 127\\.0\\.0\\.1:\\d+: aead "
                + "handshake from context " + a.id() + " over tcp refused: it does not verify with this context's "
                + "pre-shared key: the peer holds another psk \\(or the message was forged or changed\\); configure "
                + "the same psk in io\\.polylink\\.method\\.crypto on both"), atBLog);
        }
        assertFalse(taps.get(a).sentContains(ascii("SECRET")), "plaintext went out");
        assertEquals(0, seen.size());
        assertTrue(b.statistics().errors() >= 1);

        awaitClosedAtSender(a);
        over(a, atB, "tcp").send(1, a.allocateBuffer(64).putString("plain"));
        over(a, atC, "aead/tcp").pin("aead/tcp").send(1, a.allocateBuffer(64).putString("sealed"));
        Await.until(() -> seen.size() == 2, Duration.ofSeconds(5), () -> "healthy links after the refusal: " + seen);
        assertTrue(seen.containsAll(List.of("b plain", "c sealed")), seen::toString);
        // Again refused: by the failed handshake, or already while connecting if b's close came first.
        assertThrows(PolylinkException.class, () -> secret.send(1, a.allocateBuffer(64).putString("SECRET again")));
        assertFalse(taps.get(a).sentContains(ascii("SECRET")), "plaintext went out");
    }

    @Test
    void aFrameChangedOnTheWireFailsAuthenticationClosesItsConnectionAndLaterSendsArrive() {
        Context a = context();
        Context b = context();
        List<String> seen = new CopyOnWriteArrayList<>();
        Endpoint sink = b.createEndpoint().register(1, (e, m) -> seen.add(m.getString()));
        Startpoint sealed = over(a, sink, "aead/tcp").pin("aead/tcp");
        sealed.send(1, a.allocateBuffer(64).putString("first"));
        Await.until(() -> seen.size() == 1, Duration.ofSeconds(5), () -> "first RSR lost");

        try (LogCapture log = new LogCapture("io.polylink.core")) {
            // A bit in the ciphertext of the next transformed RSR frame (after header and counter).
            WireTap tap = taps.get(a);
            tap.tamperNext(f -> "aead".equals(tap.transforms(f)), f -> {
                f[WireTap.headerLength(f) + 8 + 3] ^= 0x04;
                return f;
            });
            sealed.send(1, a.allocateBuffer(64).putString("changed"));
            Await.until(() -> log.lines().stream().anyMatch(l -> l.startsWith("closing ")), Duration.ofSeconds(5),
                () -> "changed frame accepted: " + log.lines());
            String line = log.lines().stream().filter(l -> l.startsWith("closing ")).findFirst().orElseThrow();
            assertTrue(line.matches("closing tcp connection to " + a.id() + " at 127\\.0\\.0\\.1:\\d+: aead frame 1 "
                + "from context " + a.id() + " over tcp failed authentication: it was changed, forged, reflected back to "
                + "its sender, or sealed with another key"), line);
        }
        assertEquals(1, b.statistics().errors());
        // The sender sends the RSR again, as it was, over a new connection with a new session.
        Await.until(() -> seen.size() == 2, Duration.ofSeconds(5), () -> "changed RSR not sent again: " + seen);
        sealed.send(1, a.allocateBuffer(64).putString("after"));
        Await.until(() -> seen.size() == 3, Duration.ofSeconds(5), () -> "after the changed frame: " + seen);
        assertEquals(List.of("first", "changed", "after"), seen);
    }

    /**
     * The reply's aead session starts on the thread that must read the peer's key share: the
     * inline handler's sends wait on the control thread instead, so the handler returns, the share
     * is read, and the replies follow in order. Before, each send waited out the handshake timeout.
     */
    @Test
    void anInlineHandlerRepliesOverAeadToThePeerItReceivesFrom() {
        Context a = context(Map.of("handshakeTimeoutMs", 60_000));
        Context b = context(Map.of("handshakeTimeoutMs", 60_000));
        List<Long> replies = new CopyOnWriteArrayList<>();
        Endpoint sink = a.createEndpoint().register(1, (e, m) -> replies.add(m.getLong()));
        Startpoint back = over(b, sink, "aead/tcp").pin("aead/tcp");
        Endpoint echo = b.createEndpoint().register(1, (e, m) -> back.send(1, b.allocateBuffer(8).putLong(m.getLong())));
        Startpoint requests = over(a, echo, "tcp");
        int count = 500;
        MessageBuffer m = a.allocateBuffer(8);
        for (long i = 0; i < count; i++) {
            requests.send(1, m.clear().putLong(i));
        }
        Await.until(() -> replies.size() == count, Duration.ofSeconds(20),
            () -> replies.size() + " of " + count + " replies over aead/tcp; the handshake timeout is 60 s");
        assertEquals(java.util.stream.LongStream.range(0, count).boxed().toList(), replies);
        assertEquals("aead/tcp", chosen(back));
    }

    @Test
    void removingAndAddingAeadWhileTrafficFlowsMovesTheLinkAndLosesNoAcceptedRsr() throws Exception {
        Context a = context();
        Context b = context();
        AtomicLong next = new AtomicLong();
        List<String> problems = new CopyOnWriteArrayList<>();
        Endpoint sink = b.createEndpoint().register(1, (e, m) -> {
            long seq = m.getLong();
            if (seq != next.get()) {
                problems.add("expected " + next.get() + ", got " + seq);
            }
            next.set(seq + 1);
        });
        Startpoint s = over(a, sink, "aead/tcp");
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong accepted = new AtomicLong();
        List<PolylinkException> failures = new CopyOnWriteArrayList<>();
        List<String> stacks = new CopyOnWriteArrayList<>();
        Thread sender = new Thread(() -> {
            MessageBuffer message = a.allocateBuffer(256);
            while (running.get()) {
                try {
                    s.send(1, message.clear().putLong(accepted.get()).putString("payload"));
                    accepted.incrementAndGet();
                    String stack = chosen(s);
                    if (stacks.isEmpty() || !stacks.get(stacks.size() - 1).equals(stack)) {
                        stacks.add(stack);
                    }
                } catch (PolylinkException e) {
                    failures.add(e);
                }
            }
        }, "test-aead-sender");
        sender.start();
        Await.until(() -> accepted.get() > 200, Duration.ofSeconds(10), () -> "traffic did not start");

        embedded.get(a).remove(aead.get(a));
        long atRemoval = accepted.get();
        Await.until(() -> accepted.get() > atRemoval + 200, Duration.ofSeconds(10), () -> "traffic stopped without aead");
        AeadTransform back = SessionPair.transform(Map.of("handshakeTimeoutMs", 2000));
        embedded.get(a).add(back);
        long atReturn = accepted.get();
        // The peer closes the shared tcp connection when a new aead session opens on it, so the
        // link may fall back to tcp once more before it settles on aead/tcp again.
        Await.until(() -> accepted.get() > atReturn + 200 && stacks.get(stacks.size() - 1).equals("aead/tcp"),
            Duration.ofSeconds(20), () -> "the link did not return to aead/tcp: " + stacks);
        running.set(false);
        sender.join(10_000);

        Await.until(() -> next.get() == accepted.get(), Duration.ofSeconds(10),
            () -> next.get() + " of " + accepted.get() + " accepted RSRs arrived");
        assertEquals(List.of(), problems);
        assertEquals(List.of("aead/tcp", "tcp", "aead/tcp"), List.of(stacks.get(0), stacks.get(1),
            stacks.get(stacks.size() - 1)), "the link's stacks in turn: " + stacks);
        assertEquals(List.of(), failures, "the flow moves without failing a send");
    }

    @Test
    void aLinkPinnedToAeadNeverFallsBackToPlaintextWhenAeadLeaves() {
        Context a = context();
        Context b = context();
        List<String> seen = new CopyOnWriteArrayList<>();
        Endpoint sink = b.createEndpoint().register(1, (e, m) -> seen.add(m.getString()));
        Startpoint pinned = over(a, sink, "aead/tcp").pin("aead/tcp");
        pinned.send(1, a.allocateBuffer(64).putString("SECRET one"));
        Await.until(() -> seen.size() == 1, Duration.ofSeconds(5), () -> "first RSR lost");

        embedded.get(a).remove(aead.get(a));
        NoApplicableMethodException refused = assertThrows(NoApplicableMethodException.class,
            () -> pinned.send(1, a.allocateBuffer(64).putString("SECRET two")));

        assertTrue(refused.getMessage().contains("aead/tcp not installed (transform aead is not installed here)"),
            refused.getMessage());
        assertTrue(refused.getMessage().contains("tcp excluded (startpoint is pinned to aead/tcp)"), refused.getMessage());
        assertFalse(taps.get(a).sentContains(ascii("SECRET")), "plaintext went out");
        assertEquals(List.of("SECRET one"), seen);
    }

    @Test
    void withScopeOtherHostALoopbackLinkRefusesAeadAndTakesThePlainEntry() {
        Context context = context(Map.of("scope", "other-host"));
        List<String> seen = new CopyOnWriteArrayList<>();
        Endpoint endpoint = context.createEndpoint().register(1, (e, m) -> seen.add(m.getString()));
        Startpoint preferring = endpoint.startpoint().editTable(t -> t.insert(0, new Descriptor("aead/local", new byte[0])));
        Startpoint pinned = endpoint.startpoint().copy().pin("aead/local")
            .editTable(t -> t.insert(0, new Descriptor("aead/local", new byte[0])));

        preferring.send(1, context.allocateBuffer(16).putString("here"));
        NoApplicableMethodException refused = assertThrows(NoApplicableMethodException.class,
            () -> pinned.send(1, context.allocateBuffer(16).putString("nowhere")));

        assertEquals(List.of("here"), seen);
        assertEquals("local", chosen(preferring));
        String reason = preferring.explain().get(0).entries().get(0).reason();
        assertTrue(reason.contains("aead is configured with scope=other-host and this link stays within this context"),
            reason);
        assertTrue(refused.getMessage().contains("scope=other-host"), refused.getMessage());
    }
}
