package io.polylink.method.shm.internal;

import static io.polylink.method.shm.internal.ShmContexts.chosen;
import static io.polylink.method.shm.internal.ShmContexts.heldAtFirstRsr;
import static io.polylink.method.shm.internal.ShmContexts.in;
import static io.polylink.method.shm.internal.ShmContexts.scribble;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.ContextId;
import io.polylink.Endpoint;
import io.polylink.Explanation;
import io.polylink.LinkException;
import io.polylink.MessageBuffer;
import io.polylink.NoApplicableMethodException;
import io.polylink.PolylinkException;
import io.polylink.Statistics;
import io.polylink.Startpoint;
import io.polylink.Verdict;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.method.shm.internal.ShmContexts.Scribble;
import io.polylink.method.shm.internal.connect.ShmAddress;
import io.polylink.method.shm.internal.segment.InboxLayout;
import io.polylink.method.shm.internal.segment.Mapped;
import io.polylink.method.shm.internal.segment.Segment;
import io.polylink.spi.Connection;
import io.polylink.spi.HostIdentity;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import io.polylink.testkit.ThreadCpu;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Contexts in one JVM joined by real shm inboxes in a temporary segment directory. */
class ShmLinkTest {

    @RegisterExtension
    final ShmContexts contexts = new ShmContexts();

    /** @return the context of each producer slot taken in {@code c}'s inbox: one per connection sending to it */
    private List<ContextId> producersIn(Context c) {
        Segment inbox = Mapped.inbox(contexts.inboxOf(c));
        List<ContextId> producers = new ArrayList<>();
        for (int slot = 0; slot < inbox.slots(); slot++) {
            if (inbox.slotState(slot) != InboxLayout.SLOT_FREE) {
                producers.add(inbox.slotPeer(slot));
            }
        }
        return producers;
    }


    private static long checksum(long seq, byte[] body) {
        CRC32C crc = new CRC32C();
        crc.update(body);
        return crc.getValue() ^ seq;
    }


    /** A sink that checks sequence numbers and checksums of one stream. */
    private static final class Sequence {
        final AtomicLong next = new AtomicLong();
        final List<String> problems = new CopyOnWriteArrayList<>();

        void take(MessageBuffer m) {
            long seq = m.getLong();
            byte[] body = m.getBytes();
            if (seq != next.get() || m.getLong() != checksum(seq, body)) {
                problems.add("at " + next.get() + " got " + seq + " (" + body.length + " bytes)");
            }
            next.set(seq + 1);
        }
    }

    private static void sendSequence(Context from, Startpoint to, long count, java.util.function.LongToIntFunction size) {
        MessageBuffer message = from.allocateBuffer(1024);
        for (long i = 0; i < count; i++) {
            byte[] body = new byte[size.applyAsInt(i)];
            Arrays.fill(body, (byte) i);
            if (body.length > 0) {
                body[body.length / 2] = (byte) (i >>> 8);
            }
            to.send(1, message.clear().putLong(i).putBytes(body).putLong(checksum(i, body)));
        }
    }

    @Test
    void aRoundTripGoesBothWaysOverOneConnectionPerSide() throws IOException {
        Context a = contexts.context();
        Context b = contexts.context();
        List<String> answers = new CopyOnWriteArrayList<>();
        Endpoint echo = b.createEndpoint().register(1, (e, m) -> {
            Startpoint back = m.getStartpoint();
            back.send(2, b.allocateBuffer(64).putString("echo: " + m.getString()));
        });
        Endpoint mine = a.createEndpoint().register(2, (e, m) -> answers.add(m.getString()));
        Startpoint toEcho = in(a, echo.startpoint());
        for (int i = 0; i < 10; i++) {
            toEcho.send(1, a.allocateBuffer(64).putStartpoint(mine.startpoint()).putString("hi " + i));
        }
        Await.until(() -> answers.size() == 10, Duration.ofSeconds(5), () -> "answers: " + answers);
        assertEquals("echo: hi 0", answers.get(0));
        assertEquals("shm", chosen(toEcho));
        assertEquals(List.of(b.id()), producersIn(a), "b's connections sending to a");
        assertEquals(List.of(a.id()), producersIn(b), "a's connections sending to b");
        assertEquals(2, contexts.files().size(), "one inbox per context: " + contexts.files());
    }

    @Test
    void aHundredThousandRsrsCrossingTheSplitBoundaryArriveOnceAndInOrder() {
        // A 64 KiB ring takes records of up to 8 KiB: sizes up to 20 000 bytes split into up to three.
        Map<String, Object> small = Map.of("ringBytes", 65536);
        Context a = contexts.context(small);
        Context b = contexts.context(small);
        Sequence sink = new Sequence();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> sink.take(m)).startpoint());
        int maxBody = InboxLayout.maxRecord(65536) - InboxLayout.RECORD_HEADER;
        sendSequence(a, s, 100_000, i -> i % 10 == 0 ? (int) ((maxBody - 64 + i * 7) % 20_000) : (int) (i % 300));
        Await.until(() -> sink.next.get() == 100_000, Duration.ofSeconds(60),
            () -> sink.next.get() + " of 100000 arrived");
        assertEquals(List.of(), sink.problems);
        assertEquals("shm", chosen(s));
        assertEquals(0, b.statistics().errors());
        Statistics sent = contexts.method(0).statistics();
        Statistics received = contexts.method(1).statistics();
        assertTrue(sent.messagesSent() >= 100_000, sent.toString());
        assertTrue(received.messagesReceived() >= 100_000, received.toString());
    }

    @Test
    void aFrameOfSeveralMegabytesIsSplitAndReassembled() {
        Context a = contexts.context(Map.of("ringBytes", 65536));
        Context b = contexts.context(Map.of("ringBytes", 65536));
        AtomicReference<byte[]> got = new AtomicReference<>();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> got.set(m.getBytes())).startpoint());
        byte[] big = new byte[3 << 20];
        new java.util.Random(7).nextBytes(big);
        s.send(1, a.allocateBuffer(big.length + 8).putBytes(big));
        Await.until(() -> got.get() != null, Duration.ofSeconds(10), () -> "the large RSR did not arrive");
        assertTrue(Arrays.equals(big, got.get()), "content differs");
    }

    @Test
    void threeProducerContextsIntoOneConsumerKeepEachStreamInOrder() throws Exception {
        Context consumer = contexts.context();
        Map<Long, Sequence> sinks = new java.util.concurrent.ConcurrentHashMap<>();
        Endpoint sink = consumer.createEndpoint().register(1, (e, m) -> {
            long producer = m.getLong();
            sinks.computeIfAbsent(producer, k -> new Sequence()).take(m);
        });
        int producers = 3;
        int each = 30_000;
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        for (int p = 0; p < producers; p++) {
            Context producer = contexts.context();
            Startpoint s = in(producer, sink.startpoint());
            long id = p;
            Thread t = new Thread(() -> {
                try {
                    MessageBuffer message = producer.allocateBuffer(1024);
                    for (long i = 0; i < each; i++) {
                        byte[] body = new byte[(int) (i % 700)];
                        Arrays.fill(body, (byte) (i + id));
                        s.send(1, message.clear().putLong(id).putLong(i).putBytes(body).putLong(checksum(i, body)));
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "producer-" + p);
            threads.add(t);
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(60));
        }
        assertEquals(List.of(), failures);
        Await.until(() -> sinks.size() == producers && sinks.values().stream().allMatch(q -> q.next.get() == each),
            Duration.ofSeconds(30), () -> "arrived: " + sinks.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue().next.get()).toList());
        sinks.values().forEach(q -> assertEquals(List.of(), q.problems));
    }

    @Test
    void aFullRingMakesTheSenderWaitThenFailWithoutLosingOrBreakingTheLink() throws Exception {
        Context a = contexts.context(Map.of("sendTimeoutMs", 200));
        Context b = contexts.context(Map.of("ringBytes", 65536));
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong received = new AtomicLong();
        Startpoint s = heldAtFirstRsr(a, b, release, received);
        MessageBuffer big = a.allocateBuffer(4096).putRaw(new byte[4096], 0, 4096);
        int accepted = 0;
        LinkException full = null;
        try {
            for (int i = 0; i < 1000 && full == null; i++) {
                try {
                    s.send(1, big);
                    accepted++;
                } catch (LinkException e) {
                    full = e;
                }
            }
            assertTrue(full != null, "a stalled receiver never pushed back");
            assertTrue(full.getMessage().contains("is full (") && full.getMessage().contains("for 200 ms; the receiver "
                + "is slow or stalled"), full.getMessage());
            assertTrue(accepted < 20, accepted + " RSRs fit in a 64 KiB ring");
            Connection connection = contexts.method(0).connect(b.id(), contexts.method(1).localAddress(), Map.of());
            long queued = connection.statistics().queuedBytes();
            assertTrue(queued > 65536 - 2 * (4096 + 64) && queued <= 65536, queued + " bytes waiting in a full 64 KiB ring");
            assertEquals(queued, contexts.method(0).statistics().queuedBytes(), "the method's queue depth");
            ByteBuffer header = ByteBuffer.allocate(16);
            ByteBuffer payload = ByteBuffer.allocate(4096);
            assertFalse(connection.trySend(header, payload), "a send that would wait is declined");
            assertEquals(16, header.remaining(), "a declined frame's header is not consumed");
            assertEquals(4096, payload.remaining(), "a declined frame's payload is not consumed");
            assertEquals(List.of(a.id()), producersIn(b), "backpressure does not break the link");
        } finally {
            release.countDown();
        }
        long expected = accepted;
        Await.until(() -> received.get() == expected, Duration.ofSeconds(10),
            () -> received.get() + " of " + expected + " accepted RSRs arrived");
        s.send(1, big);
        Await.until(() -> received.get() == expected + 1, Duration.ofSeconds(10), () -> "the link did not recover");
        Await.until(() -> contexts.method(0).statistics().queuedBytes() == 0, Duration.ofSeconds(5),
            () -> contexts.method(0).statistics().queuedBytes() + " bytes still waiting in b's inbox after all "
                + "arrived");
    }

    @Test
    void aTruncatedOrForeignSegmentIsACleanErrorAndOtherLinksKeepWorking() throws Exception {
        Context a = contexts.context();
        Context b = contexts.context();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint healthy = in(a, b.createEndpoint().register(1, (e, m) -> seen.add(m.getInt())).startpoint());
        healthy.send(1, a.allocateBuffer(4).putInt(1));
        Await.until(() -> seen.contains(1), Duration.ofSeconds(5), () -> "first RSR lost");
        int threads = Await.threads("polylink-").size();

        ShmMethod sender = contexts.method(0);
        Path directory = contexts.directory();
        Path real = contexts.inboxOf(b);
        ContextId ghost = ContextId.random();
        String name = String.format("%016x%016x.inbox", ghost.high(), ghost.low());
        ShmAddress fake = new ShmAddress(ShmAddress.decode(sender.localAddress()).host(), directory, name);

        Files.write(directory.resolve(name), new byte[100]);
        LinkException shortFile = assertThrows(LinkException.class,
            () -> sender.connect(ghost, fake.encode(), Map.of()));
        assertEquals("shm segment " + directory.resolve(name) + " is truncated: 100 bytes, shorter than the 512-byte "
            + "header", shortFile.getMessage());

        byte[] copy = Files.readAllBytes(real);
        Files.write(directory.resolve(name), Arrays.copyOf(copy, copy.length / 2));
        LinkException halfFile = assertThrows(LinkException.class,
            () -> sender.connect(ghost, fake.encode(), Map.of()));
        assertTrue(halfFile.getMessage().matches("shm segment .* is truncated: \\d+ bytes, its header says \\d+"),
            halfFile.getMessage());

        Files.write(directory.resolve(name), copy);
        LinkException foreign = assertThrows(LinkException.class,
            () -> sender.connect(ghost, fake.encode(), Map.of()));
        assertTrue(foreign.getMessage().contains("belongs to context " + b.id() + ", not " + ghost),
            foreign.getMessage());

        byte[] garbage = copy.clone();
        garbage[0] ^= 0x55;
        Files.write(directory.resolve(name), garbage);
        LinkException magic = assertThrows(LinkException.class,
            () -> sender.connect(ghost, fake.encode(), Map.of()));
        assertTrue(magic.getMessage().endsWith("is not a Polylink inbox (bad magic)"), magic.getMessage());
        Files.delete(directory.resolve(name));

        healthy.send(1, a.allocateBuffer(4).putInt(2));
        Await.until(() -> seen.contains(2), Duration.ofSeconds(5), () -> "healthy link broke");
        assertEquals(threads, Await.threads("polylink-").size(), "threads leaked");
        assertEquals(2, contexts.files().size(), "files: " + contexts.files());
    }

    @Test
    void aCorruptRecordInTheInboxIsLoggedOnBothSidesTheInboxReplacedAndTheLinkReconnects() throws Exception {
        Context a = contexts.context();
        Context b = contexts.context();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> seen.add(m.getInt())).startpoint());
        s.send(1, a.allocateBuffer(4).putInt(1));
        Await.until(() -> seen.contains(1), Duration.ofSeconds(5), () -> "first RSR lost");

        Path inbox = contexts.inboxOf(b);
        try (LogCapture log = new LogCapture("io.polylink.method.shm"); LogCapture core = new LogCapture("io.polylink.core")) {
            Scribble at = scribble(inbox);
            Await.until(() -> log.lines().stream().anyMatch(l -> l.contains("is corrupt")), Duration.ofSeconds(5),
                () -> "no log line: " + log.lines());
            assertTrue(log.lines().stream().anyMatch(l -> l.matches("shm inbox .* is corrupt: record at ring offset "
                + at.index() + " claims " + at.capacity() + " bytes, " + (at.capacity() - at.index()) + " left before "
                + "the end of the ring; closing its connections and replacing it")), log.lines().toString());
            // The sender hears of it from b's goodbye, and says why, naming the inbox.
            String abandoned = "closed: context " + b.id() + " abandoned its inbox " + inbox
                + " (its log says why) and makes a fresh one";
            Await.until(() -> core.lines().stream().anyMatch(l -> l.startsWith("shm connection to " + b.id())
                && l.endsWith(abandoned)), Duration.ofSeconds(5), () -> "a did not say why: " + core.lines());
        }
        // Sends before the sender notices the replacement go to the abandoned ring; keep sending until one lands.
        Await.until(() -> {
            try {
                s.send(1, a.allocateBuffer(4).putInt(2));
            } catch (io.polylink.PolylinkException e) {
                // the link reports the closed connection once, then connects to the new inbox
            }
            return seen.contains(2);
        }, Duration.ofSeconds(5), () -> "the link did not reconnect: " + seen);
        assertTrue(b.statistics().errors() + contexts.method(1).statistics().errors() >= 1);
        assertEquals(2, contexts.files().size(), "files: " + contexts.files());
    }

    @Test
    void segmentsOfDeadContextsAreRemovedAtStartAndLiveOnesAreNotTouched() throws Exception {
        Context live = contexts.context();
        Path liveInbox = contexts.inboxOf(live);
        byte[] image = Files.readAllBytes(liveInbox);
        long deadPid = deadPid();

        ContextId ghost = ContextId.random();
        Path directory = contexts.directory();
        Path stale = directory.resolve(String.format("%016x%016x.inbox", ghost.high(), ghost.low()));
        ByteBuffer patched = ByteBuffer.wrap(image.clone()).order(ByteOrder.nativeOrder());
        patched.putLong(InboxLayout.OWNER_PID_OFFSET, deadPid);
        patched.putLong(InboxLayout.HEARTBEAT_MILLIS_OFFSET, System.currentTimeMillis() - 60_000);
        Files.write(stale, patched.array());
        Path half = directory.resolve(stale.getFileName() + "." + deadPid + ".tmp");
        Files.write(half, new byte[10]);
        Path unrelated = directory.resolve("notes.txt");
        Files.writeString(unrelated, "not ours");

        Context next = contexts.context();
        assertFalse(Files.exists(stale), "stale inbox left");
        assertFalse(Files.exists(half), "half-made segment left");
        assertTrue(Files.exists(liveInbox), "a live inbox was removed");
        assertTrue(Files.exists(unrelated), "a file that is not ours was removed");
        Files.delete(unrelated);

        List<Integer> seen = new CopyOnWriteArrayList<>();
        in(next, live.createEndpoint().register(1, (e, m) -> seen.add(m.getInt())).startpoint())
            .send(1, next.allocateBuffer(4).putInt(5));
        Await.until(() -> seen.contains(5), Duration.ofSeconds(5), () -> "the live context is unreachable");
    }

    /** @return the pid of a process that has ended */
    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        Await.until(() -> !ProcessHandle.of(p.pid()).map(ProcessHandle::isAlive).orElse(false),
            Duration.ofSeconds(5), () -> "process " + p.pid() + " still alive");
        return p.pid();
    }

    @Test
    void aSendWaitingForRoomInAnInboxThatClosesFailsAtOnceInsteadOfWaitingOutItsTimeout() throws Exception {
        Context a = contexts.context(Map.of("sendTimeoutMs", 60_000));
        Context b = contexts.context(Map.of("ringBytes", 65536));
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong received = new AtomicLong();
        Startpoint s = heldAtFirstRsr(a, b, release, received);
        MessageBuffer big = a.allocateBuffer(4096).putRaw(new byte[4096], 0, 4096);
        Segment inbox = Mapped.inbox(contexts.inboxOf(b));
        ExecutorService sending = Executors.newSingleThreadExecutor();
        try {
            Future<PolylinkException> outcome = sending.submit(() -> {
                try {
                    for (int i = 0; i < 1000; i++) {
                        s.send(1, big);
                    }
                    return null;
                } catch (PolylinkException e) {
                    return e;
                }
            });
            // b's poller is held in the handler, so once full the ring stays full and a's sender waits for room.
            Await.until(() -> inbox.capacity() - (inbox.tail() - inbox.head()) < 2 * 4096, Duration.ofSeconds(10),
                () -> "the ring never filled");
            long closed = System.nanoTime();
            inbox.state(InboxLayout.STATE_CLOSED); // what b's method does when it stops, its poller still in a handler
            PolylinkException failure;
            try {
                failure = outcome.get(5, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError("a send waiting for room in an inbox closed 5 s ago still waits: it would "
                    + "wait out its 60 s sendTimeoutMs and fail as full, not as closed");
            }
            System.out.printf("a send waiting for room failed %d ms after the receiver closed its inbox: %s%n",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closed), failure);
            assertTrue(failure != null && !failure.getMessage().contains("is full"), String.valueOf(failure));
        } finally {
            release.countDown();
            sending.shutdownNow();
            assertTrue(sending.awaitTermination(70, TimeUnit.SECONDS), "the sender did not finish");
        }
    }

    @Test
    void aReceiverThatStopsMakesSendsFailWithinASecond() {
        Context a = contexts.context();
        Context b = contexts.context();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> seen.add(m.getInt())).startpoint());
        s.send(1, a.allocateBuffer(4).putInt(1));
        Await.until(() -> seen.contains(1), Duration.ofSeconds(5), () -> "first RSR lost");
        contexts.embedded(1).close();
        long stopped = System.nanoTime();
        Await.until(() -> {
            try {
                s.send(1, a.allocateBuffer(4).putInt(2));
                return false;
            } catch (NoApplicableMethodException | LinkException e) {
                return true;
            }
        }, Duration.ofSeconds(1), () -> "sends to a stopped peer still succeed");
        System.out.printf("shm sends failed %d ms after the receiver stopped%n",
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped));
        // Selection's refusal, prefixed with why the connection failed if no send has said it yet.
        io.polylink.PolylinkException e = assertThrows(io.polylink.PolylinkException.class,
            () -> s.send(1, a.allocateBuffer(4).putInt(3)));
        assertTrue(e.getMessage().contains("shm refused (no writable inbox "), e.getMessage());
    }

    @Test
    void aReceiverWhoseHeartbeatStopsWhileItsProcessRunsKeepsItsLinks() throws Exception {
        Context a = contexts.context(Map.of("heartbeatIntervalMs", "20", "failureTimeoutMs", "100"));
        // b beats once when it starts, then not for 100 s: to a it is as silent as a starved or paused process.
        Context b = contexts.context(Map.of("heartbeatIntervalMs", "100000", "failureTimeoutMs", "100001"));
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> seen.add(m.getInt())).startpoint());
        s.send(1, a.allocateBuffer(4).putInt(1));
        Await.until(() -> seen.contains(1), Duration.ofSeconds(5), () -> "first RSR lost");
        Connection first = contexts.method(0).connect(b.id(), contexts.method(1).localAddress(), Map.of());
        try (LogCapture log = new LogCapture("io.polylink.method.shm");
             LogCapture core = new LogCapture("io.polylink.core")) {
            // Ten of a's failure timeouts with b's inbox standing still: a must not give up on b.
            new CountDownLatch(1).await(1, TimeUnit.SECONDS);
            String runs = "but its process " + ProcessHandle.current().pid() + " runs";
            Await.until(() -> log.lines().stream().anyMatch(l -> l.contains(runs)), Duration.ofSeconds(10),
                () -> String.join("\n", log.lines()));
            assertEquals(List.of(), core.lines(), "a closed its connection to b");
        }
        s.send(1, a.allocateBuffer(4).putInt(2));
        Await.until(() -> seen.contains(2), Duration.ofSeconds(5), () -> "second RSR lost");
        assertTrue(first.isOpen(), "the first connection closed");
        assertSame(first, contexts.method(0).connect(b.id(), contexts.method(1).localAddress(), Map.of()),
            "the first connection still serves the link");
        assertEquals(0, contexts.method(0).statistics().errors());
    }

    @Test
    void withTcpInstalledTooSameHostLinksChooseShmAndExplainWhyTcpWasNot() {
        Context a = contexts.both(Map.of());
        Context b = contexts.both(Map.of());
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> seen.add(m.getInt())).startpoint());
        s.send(1, a.allocateBuffer(4).putInt(1));
        Await.until(() -> seen.contains(1), Duration.ofSeconds(5), () -> "RSR lost");
        Explanation x = s.explain().get(0);
        System.out.println(x);
        assertEquals(List.of("local", "shm", "tcp"), x.entries().stream().map(e -> e.descriptor().stack()).toList());
        assertEquals(Verdict.CHOSEN, x.entries().get(1).verdict());
        assertTrue(x.entries().get(1).reason().startsWith("same host"), x.entries().get(1).reason());
        assertEquals(Verdict.NOT_CONSIDERED, x.entries().get(2).verdict());
        assertTrue(x.entries().get(2).reason().contains("entry 2 was chosen first"), x.entries().get(2).reason());
    }

    @Test
    void aLinkWhoseShmIsRefusedUsesTcp(@TempDir Path untrusted) throws Exception {
        Context a = contexts.both(Map.of());
        Context elsewhere = contexts.both(EmbeddedContext.open(HostIdentity.named("another-machine")), Map.of());
        Context apart = contexts.both(Map.of("directory", untrusted.toString()));
        List<String> seen = new CopyOnWriteArrayList<>();
        Startpoint toElsewhere = in(a, elsewhere.createEndpoint().register(1, (e, m) -> seen.add("x")).startpoint());
        Startpoint toApart = in(a, apart.createEndpoint().register(1, (e, m) -> seen.add("h")).startpoint());

        toElsewhere.send(1, a.allocateBuffer(0));
        toApart.send(1, a.allocateBuffer(0));
        Await.until(() -> seen.size() == 2, Duration.ofSeconds(5), () -> "seen " + seen);

        Explanation x = toElsewhere.explain().get(0);
        assertEquals("tcp", x.chosen().orElseThrow().descriptor().stack());
        assertEquals(Verdict.REFUSED, x.entries().get(1).verdict());
        assertTrue(x.entries().get(1).reason().matches("other host \\(machine [0-9a-f]{8}…, here [0-9a-f]{8}…\\)"),
            x.entries().get(1).reason());
        Explanation h = toApart.explain().get(0);
        assertEquals("tcp", h.chosen().orElseThrow().descriptor().stack());
        assertEquals("segment directory " + untrusted + " is not one this context trusts (its own is "
            + contexts.directory() + "; add the other to trustedDirectories to map inboxes there)",
            h.entries().get(1).reason());
    }

    @Test
    void unknownLinkParametersAreRefused() {
        Context a = contexts.context();
        Context b = contexts.context();
        Startpoint s = in(a, b.createEndpoint().startpoint()).parameter("shm", "colour", "blue");
        NoApplicableMethodException e = assertThrows(NoApplicableMethodException.class,
            () -> s.send(1, a.allocateBuffer(0)));
        assertTrue(e.getMessage().contains("shm takes no per-link parameters; got [colour]"), e.getMessage());
    }

    @Test
    void anIdleLinkCostsLessThanTwoPercentOfACore() throws Exception {
        Context a = contexts.context();
        Context b = contexts.context();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> { }).startpoint());
        s.send(1, a.allocateBuffer(0));
        List<Thread> threads = Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().startsWith("polylink-shm")).toList();
        assertEquals(4, threads.size(), "poller and timer per context: " + threads);
        new CountDownLatch(1).await(300, TimeUnit.MILLISECONDS); // past the spin phase
        ThreadCpu used = ThreadCpu.measure(threads, Duration.ofSeconds(2));
        double share = used.share() / 2;
        System.out.printf("idle shm threads: %.3f%% of a core per context (poller + timer); %s%n",
            100 * share, used.each());
        assertTrue(share < 0.02, share * 100 + "% of a core");
    }

    @Test
    void aSpinningPollerParksOnceQuietFor100MsAndTheNextRecordWakesIt() throws Exception {
        Context a = contexts.context(Map.of("idleStrategy", "spin"));
        Context b = contexts.context(Map.of("idleStrategy", "spin"));
        AtomicLong received = new AtomicLong();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> received.incrementAndGet()).startpoint());
        s.send(1, a.allocateBuffer(0));
        List<Thread> pollers = Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().equals("polylink-shm-io")).toList();
        assertEquals(2, pollers.size(), "a poller per context: " + pollers);
        // Past the receiver's quiet acknowledgement (after quietAckMs, 1 s) and the 100 ms of spinning after it.
        new CountDownLatch(1).await(1500, TimeUnit.MILLISECONDS);
        ThreadCpu used = ThreadCpu.measure(pollers, Duration.ofSeconds(2));
        double share = used.share() / 2;
        System.out.printf("idle spinning shm pollers: %.3f%% of a core each; %s%n", 100 * share, used.each());
        assertTrue(share < 0.02, "an idle poller with spin took " + share * 100 + "% of a core");
        s.send(1, a.allocateBuffer(0));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (received.get() < 2) {
            assertTrue(System.nanoTime() - deadline < 0, "the record after the quiet did not wake the poller");
            Thread.onSpinWait();
        }
    }

    @Test
    void aParkedReceiverIsWokenByTheSenderNotByATimeout() throws Exception {
        Context a = contexts.context(Map.of("idleStrategy", "park"));
        Context b = contexts.context(Map.of("idleStrategy", "park"));
        int rounds = 200;
        long[] rtt = new long[rounds];
        AtomicLong pong = new AtomicLong(-1);
        Endpoint back = a.createEndpoint().register(2, (e, m) -> pong.set(m.getLong()));
        Startpoint ping = in(a, b.createEndpoint().register(1, (e, m) -> {
            long n = m.getLong();
            m.getStartpoint().send(2, b.allocateBuffer(64).putLong(n));
        }).startpoint());
        MessageBuffer message = a.allocateBuffer(64);
        for (int i = 0; i < rounds; i++) {
            // Both pollers are parked by now (strategy park): each message needs a wake-up.
            long start = System.nanoTime();
            ping.send(1, message.clear().putLong(i).putStartpoint(back.startpoint()));
            long deadline = start + TimeUnit.SECONDS.toNanos(5);
            while (pong.get() != i) {
                assertTrue(System.nanoTime() - deadline < 0, "pong " + i + " missing after 5 s");
                Thread.onSpinWait();
            }
            rtt[i] = System.nanoTime() - start;
            new CountDownLatch(1).await(2, TimeUnit.MILLISECONDS);
        }
        long[] sorted = rtt.clone();
        Arrays.sort(sorted);
        System.out.printf("parked round trip (two wake-ups): median %d us, p90 %d us, max %d us%n",
            sorted[rounds / 2] / 1000, sorted[rounds * 9 / 10] / 1000, sorted[rounds - 1] / 1000);
        // A wake-up by timeout would take the 100 ms tick; a poke takes microseconds.
        assertTrue(sorted[rounds / 2] < TimeUnit.MILLISECONDS.toNanos(50),
            "median round trip " + sorted[rounds / 2] / 1000 + " us: the receiver waits for its timer");
    }
}
