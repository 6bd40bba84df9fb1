package io.polylink.method.tcp.internal.connection;

import static io.polylink.method.tcp.internal.TcpContexts.checkedSink;
import static io.polylink.method.tcp.internal.TcpContexts.checksum;
import static io.polylink.method.tcp.internal.TcpContexts.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.Endpoint;
import io.polylink.LinkException;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.method.tcp.internal.TcpContexts;
import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.method.tcp.internal.loop.IoLoop;
import io.polylink.testkit.Await;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The paths a frame takes through a connection between two contexts: written by its sender,
 * queued for the I/O thread, or finished by its sender; read by the I/O thread, directly in a
 * conversation, or aside by a sender at the sending end of a bulk stream; and the buffers each
 * path grew, given back once idle.
 */
class ConnectionPathsTest {

    private final TcpContexts tcp = new TcpContexts();

    @AfterEach
    void close() {
        tcp.close();
    }

    /**
     * Each side streams large numbered RSRs from its own thread while its inline handler answers
     * every RSR it receives with a small numbered one, over one connection with small socket
     * buffers: the streaming threads finish their frames themselves while the I/O threads queue
     * answers and acknowledgements behind them. All four streams arrive intact and in order.
     *
     * <p>A sender finishes a frame only if it finds nothing queued; once answers queue faster than
     * the socket drains, every later frame may queue behind them. So each stream sends only once
     * its connection's queue has drained: most frames then start on an idle connection and the
     * socket, far smaller than most frames, leaves their rest to the sender.
     */
    @Test
    void largeFramesFinishedBySendersInterleaveWithAnswersQueuedMeanwhile() throws Exception {
        Map<String, Object> small = Map.of("bindAddress", "127.0.0.1", "sendBuffer", "32768", "receiveBuffer", "32768");
        Context a = tcp.open(small);
        Context b = tcp.open(small);
        List<String> problems = new CopyOnWriteArrayList<>();
        AtomicLong[] next = {new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong()};
        Endpoint atA = a.createEndpoint();
        Endpoint atB = b.createEndpoint();
        Startpoint toB = in(a, atB.startpoint());
        Startpoint toA = in(b, atA.startpoint());
        answering(atA, a, in(a, atB.startpoint()), next[0], next[1], problems);
        answering(atB, b, in(b, atA.startpoint()), next[2], next[3], problems);
        int count = 400;
        TcpConnection ab = (TcpConnection) tcp.connection(0, 1);
        TcpConnection ba = (TcpConnection) tcp.connection(1, 0);
        ExecutorService streams = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> sending = List.of(
                streams.submit(() -> stream(a, toB, count, ab)), streams.submit(() -> stream(b, toA, count, ba)));
            for (Future<?> f : sending) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            streams.shutdownNow();
        }
        Await.until(() -> Arrays.stream(next).allMatch(n -> n.get() == count), Duration.ofSeconds(30),
            () -> "streamed and answered: " + Arrays.toString(next) + " of " + count + "; " + problems);
        assertEquals(List.of(), problems);
        assertTrue(finishedAFrame(ab) && finishedAFrame(ba),
            "frames finished by their senders: a's " + finishedAFrame(ab) + ", b's " + finishedAFrame(ba));
        assertEquals(0, tcp.method(0).statistics().errors() + tcp.method(1).statistics().errors());
    }

    /**
     * Streams RSRs of 20 KiB to 300 KiB, numbered and checksummed, to handler 1, each once
     * {@code through} has nothing queued.
     */
    private static Void stream(Context from, Startpoint to, int count, TcpConnection through) {
        MessageBuffer message = from.allocateBuffer(300_000);
        for (long i = 0; i < count; i++) {
            byte[] body = new byte[20_000 + (int) (i * 7919 % 280_000)];
            Arrays.fill(body, (byte) i);
            body[body.length / 2] = (byte) (i >> 8);
            long frame = i;
            Await.until(() -> through.out.queuedBytes() == 0, Duration.ofSeconds(30),
                () -> "frame " + frame + " to " + through + " waits behind " + through.out.queuedBytes() + " bytes");
            to.send(1, message.clear().putLong(i).putBytes(body).putLong(checksum(i, body)));
        }
        return null;
    }

    /** Checks the stream on handler 1 into {@code streamed} and answers each RSR, numbered, to handler 2. */
    private static void answering(Endpoint endpoint, Context in, Startpoint back, AtomicLong streamed,
                                  AtomicLong answered, List<String> problems) {
        MessageBuffer answer = in.allocateBuffer(64);
        endpoint.register(1, (e, m) -> {
            long seq = m.getLong();
            byte[] body = m.getBytes();
            if (seq != streamed.get() || m.getLong() != checksum(seq, body)) {
                problems.add(in.id() + " at " + streamed.get() + " got " + seq + " of " + body.length + " bytes");
            }
            streamed.set(seq + 1);
            back.send(2, answer.clear().putLong(seq));
        }).register(2, (e, m) -> {
            long seq = m.getLong();
            if (seq != answered.get()) {
                problems.add(in.id() + " expected answer " + answered.get() + ", got " + seq);
            }
            answered.set(seq + 1);
        });
    }

    @Test
    void aStalledReceiverMakesTheSenderWaitThenFailWithoutGrowingItsQueue() throws Exception {
        Context a = tcp.open(Map.of("bindAddress", "127.0.0.1", "queueLimit", "65536", "sendTimeoutMs", "200"));
        Context b = tcp.open();
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong received = new AtomicLong();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> {
            if (received.incrementAndGet() == 1) {
                release.await(30, TimeUnit.SECONDS);
            }
        }).startpoint());
        MessageBuffer big = a.allocateBuffer(8192).putRaw(new byte[8192], 0, 8192);
        long sent;
        try {
            sent = sendUntilRefused(s, 100_000, i -> big);
            TcpConnection connection = queuedAtMost(65536 + 8192 + 16);
            long queued = connection.statistics().queuedBytes();
            assertEquals(queued, tcp.method(0).statistics().queuedBytes(), "the method's queue depth");
            ByteBuffer header = ByteBuffer.allocate(16);
            ByteBuffer payload = ByteBuffer.allocate(8192);
            assertFalse(connection.trySend(header, payload), "a send that would wait is declined");
            assertEquals(16, header.remaining(), "a declined frame's header is not consumed");
            assertEquals(8192, payload.remaining(), "a declined frame's payload is not consumed");
            assertEquals(queued, connection.statistics().queuedBytes(), "a declined frame is not queued");
            assertTrue(connection.isOpen(), "backpressure does not break the link");
        } finally {
            release.countDown();
        }
        long expected = sent - 1;
        Await.until(() -> received.get() == expected, Duration.ofSeconds(30),
            () -> received.get() + " of " + expected + " accepted RSRs arrived");
        Await.until(() -> tcp.method(0).statistics().queuedBytes() == 0, Duration.ofSeconds(5),
            () -> tcp.method(0).statistics().queuedBytes() + " bytes still queued after all arrived");
    }

    /**
     * A sender finishing a large frame to a stalled receiver stops waiting once the socket takes
     * nothing for the send timeout: the rest goes to the front of the queue, the next send meets
     * the queue's bound, and everything accepted arrives intact once the receiver goes on.
     */
    @Test
    void aStalledReceiverOfLargeFramesMakesTheSenderQueueTheRestThenFail() throws Exception {
        Context a = tcp.open(Map.of("bindAddress", "127.0.0.1", "queueLimit", "65536", "sendTimeoutMs", "200"));
        Context b = tcp.open();
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong next = new AtomicLong();
        List<String> problems = new CopyOnWriteArrayList<>();
        Endpoint sink = checkedSink(b, next, problems);
        sink.register(2, (e, m) -> release.await(30, TimeUnit.SECONDS));
        Startpoint s = in(a, sink.startpoint());
        s.send(2, a.allocateBuffer(0));
        MessageBuffer message = a.allocateBuffer(1 << 20);
        long sent;
        try {
            sent = sendUntilRefused(s, 1000, i -> {
                byte[] body = new byte[1 << 20];
                Arrays.fill(body, (byte) i);
                return message.clear().putLong(i).putBytes(body).putLong(checksum(i, body));
            });
            TcpConnection connection = queuedAtMost(65536 + (1 << 20) + 64);
            assertTrue(finishedAFrame(connection), "no sender finished a frame");
            assertTrue(connection.isOpen(), "backpressure does not break the link");
        } finally {
            release.countDown();
        }
        long expected = sent - 1;
        Await.until(() -> next.get() == expected, Duration.ofSeconds(30),
            () -> next.get() + " of " + expected + " accepted RSRs arrived; " + problems);
        assertEquals(List.of(), problems);
    }

    /**
     * Sends to handler 1 what {@code next} makes of 0, 1, ... until a send is refused for a full
     * queue (with a 200 ms send timeout).
     *
     * @return the sends made, the refused one included
     */
    private static long sendUntilRefused(Startpoint s, int atMost, LongFunction<MessageBuffer> next) {
        for (long sent = 1; sent <= atMost; sent++) {
            try {
                s.send(1, next.apply(sent - 1));
            } catch (LinkException e) {
                assertTrue(e.getMessage().contains("is full") && e.getMessage().contains("for 200 ms"), e.getMessage());
                return sent;
            }
        }
        throw new AssertionError("a stalled receiver never pushed back in " + atMost + " sends");
    }

    /** @return the first context's connection to the second, having checked it queues some bytes, at most {@code bound} */
    private TcpConnection queuedAtMost(long bound) {
        TcpConnection connection = (TcpConnection) tcp.connection(0, 1);
        long queued = connection.statistics().queuedBytes();
        assertTrue(queued > 0 && queued <= bound, queued + " bytes queued");
        return connection;
    }

    /** @return whether a sender wrote the rest of a large frame on {@code connection} itself, its writer being made for that */
    private static boolean finishedAFrame(TcpConnection connection) {
        return connection.out.large != null;
    }

    @Test
    void aConnectionGivesBackTheBuffersALargeFrameGrewOnceIdle() throws Exception {
        Context a = tcp.open();
        Context b = tcp.open();
        AtomicLong received = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> {
            bytes.addAndGet(m.length());
            received.incrementAndGet();
        }).startpoint());
        s.send(1, a.allocateBuffer(16).putRaw(new byte[16], 0, 16));
        Await.until(() -> received.get() == 1, Duration.ofSeconds(10), () -> "the first RSR never arrived");
        TcpConnection sending = (TcpConnection) tcp.connection(0, 1);
        TcpConnection receiving = (TcpConnection) tcp.connection(1, 0);
        assertEquals(4096, readCapacity(receiving), "a connection that carried one small RSR reads into 4 KiB");

        s.send(1, a.allocateBuffer(60_000).putRaw(new byte[60_000], 0, 60_000));
        Await.until(() -> received.get() == 2, Duration.ofSeconds(10), () -> "the 60 kB RSR never arrived");
        assertEquals(1024, sending.out.stagingCapacity(), "a 60 kB RSR goes out from the flow's direct copy, unstaged");
        assertTrue(readCapacity(receiving) > 60_000, readCapacity(receiving) + " bytes read a 60 kB frame");
        s.send(1, a.allocateBuffer(10_000).putRaw(new byte[10_000], 0, 10_000));
        Await.until(() -> received.get() == 3, Duration.ofSeconds(10), () -> "the 10 kB RSR never arrived");
        assertTrue(sending.out.stagingCapacity() > 10_000, sending.out.stagingCapacity() + " bytes staged a 10 kB frame");
        Await.until(() -> sending.out.stagingCapacity() == 1024 && readCapacity(receiving) == 4096,
            Duration.ofSeconds(10), () -> "an idle connection still holds " + sending.out.stagingCapacity()
                + " bytes for staging and " + readCapacity(receiving) + " for reading");

        s.send(1, a.allocateBuffer(16).putRaw(new byte[16], 0, 16));
        s.send(1, a.allocateBuffer(60_000).putRaw(new byte[60_000], 0, 60_000));
        Await.until(() -> received.get() == 5, Duration.ofSeconds(10), () -> "the RSRs after the shrink never arrived");
        assertEquals(16 + 60_000 + 10_000 + 16 + 60_000, bytes.get());
    }

    /** @return the size of {@code connection}'s read buffer, asked on its I/O thread, which owns it */
    private static int readCapacity(TcpConnection connection) {
        CompletableFuture<Integer> size = new CompletableFuture<>();
        connection.loop.execute(() -> size.complete(connection.in.readCapacity()));
        return size.orTimeout(10, TimeUnit.SECONDS).join();
    }

    /**
     * A stream of large RSRs makes its sender's connection the sending end of a bulk stream, and a
     * request and its reply end that. What the sender reads is kept to what the stream asks for:
     * no heartbeats, no acknowledgement of a quiet flow, and the stream paced a few RSRs ahead of
     * its delivery, so the core never keeps the half of its bound that makes every RSR ask for an
     * acknowledgement. Unpaced, a sender whose RSRs queue faster than the socket takes them can
     * read an acknowledgement per RSR, and a machine under load decides whether it counts as bulk.
     */
    @Test
    void theSenderOfAStreamOfLargeRsrsSendsInBulkUntilAConversation() {
        Map<String, Object> noHeartbeats = Map.of("bindAddress", "127.0.0.1",
            "heartbeatIntervalMs", "60000", "failureTimeoutMs", "120000");
        Map<String, String> noQuietAcks = Map.of("quietAckMs", "0");
        Context a = tcp.open(noHeartbeats, noQuietAcks);
        Context b = tcp.open(noHeartbeats, noQuietAcks);
        AtomicLong received = new AtomicLong();
        Endpoint sink = b.createEndpoint().register(1, (e, m) -> received.incrementAndGet());
        Endpoint replies = a.createEndpoint().register(1, (e, m) -> received.incrementAndGet());
        Startpoint back = replies.startpoint();
        sink.register(2, (e, m) -> b.startpoint(back.toText()).send(1, b.allocateBuffer(16).putRaw(new byte[16], 0, 16)));
        Startpoint s = in(a, sink.startpoint());
        s.send(1, a.allocateBuffer(16).putRaw(new byte[16], 0, 16));
        Await.until(() -> received.get() == 1, Duration.ofSeconds(10), () -> "the first RSR never arrived");
        TcpConnection sending = (TcpConnection) tcp.connection(0, 1);
        TcpConnection receiving = (TcpConnection) tcp.connection(1, 0);

        // The core asks for an acknowledgement every 16 MiB of 1 MiB RSRs: the sender reads one per 16 MiB sent.
        int mebibyte = 1 << 20;
        int ahead = 4;
        MessageBuffer large = a.allocateBuffer(mebibyte).putRaw(new byte[mebibyte], 0, mebibyte);
        int sent = 0;
        while (sent < 64 && !sending.in.sendsInBulk()) {
            long streamed = 1 + sent;
            Await.until(() -> received.get() >= streamed - ahead, Duration.ofSeconds(10),
                () -> received.get() + " of " + streamed + " RSRs arrived");
            s.send(1, large);
            sent++;
        }
        assertTrue(sending.in.sendsInBulk(), "the sender of " + sent + " RSRs of 1 MiB never counted as sending in bulk: "
            + sending.statistics());
        long streamed = 1 + sent;
        Await.until(() -> received.get() == streamed, Duration.ofSeconds(10),
            () -> received.get() + " of " + streamed + " RSRs arrived");
        assertFalse(receiving.in.sendsInBulk(), "the receiving end, which sent only acknowledgements, sends in bulk");

        // A read may still cover the stream's last bytes; the next request and reply cannot.
        for (int exchange = 1; exchange <= 2; exchange++) {
            long before = received.get();
            s.send(2, a.allocateBuffer(16).putRaw(new byte[16], 0, 16));
            Await.until(() -> received.get() == before + 1, Duration.ofSeconds(10), () -> "a request or its reply was lost");
        }
        assertFalse(sending.in.sendsInBulk(), "after requests and replies the sender still counts as sending in bulk");
    }

    /**
     * The sending end of a bulk stream reads its own socket between writes when the I/O thread
     * found it busy: the core takes the acknowledgements there, and the replies that come
     * meanwhile go back to the I/O thread and arrive in order; their inline handler sends on the
     * same connection as the streaming thread. Streams until both happened. Each send is told the
     * loop wants the sender to read ({@link Inbound#wantReadAside}): since a sender finishes
     * its own large frames, holding the read lock only while it writes, a stream met the moment
     * the loop found the lock held too seldom to be sure of it. A request goes every 64th RSR
     * (4 MiB), so the loop reading a reply still finds 2 MiB or more sent between its reads.
     */
    @Test
    void theSenderOfABulkStreamReadsItsAcknowledgementsAndHandsTheRestBack() {
        TcpMethod atA = new TcpMethod(TcpContexts.LOOPBACK);
        AsideWatch aside = new AsideWatch(atA);
        Context a = tcp.open(atA, aside.method);
        Context b = tcp.open();
        AtomicLong nextReply = new AtomicLong();
        List<String> problems = new CopyOnWriteArrayList<>();
        AtomicLong next = new AtomicLong();
        Endpoint sink = checkedSink(b, next, problems);
        AtomicLong thanked = new AtomicLong();
        sink.register(3, (e, m) -> thanked.incrementAndGet());
        Startpoint s = in(a, sink.startpoint());
        Startpoint back = a.createEndpoint().register(1, (e, m) -> {
            long seq = m.getLong();
            if (seq != nextReply.get()) {
                problems.add("reply " + seq + " came when " + nextReply.get() + " was due");
            }
            nextReply.set(seq + 1);
            s.send(3, a.allocateBuffer(8).putLong(seq));
        }).startpoint();
        sink.register(2, (e, m) -> b.startpoint(back.toText()).send(1, b.allocateBuffer(8).putLong(m.getLong())));
        s.send(2, a.allocateBuffer(8).putLong(0));
        Await.until(() -> nextReply.get() == 1, Duration.ofSeconds(10), () -> "the first reply never came");
        TcpConnection sending = (TcpConnection) tcp.connection(0, 1);

        byte[] body = new byte[64 * 1024 - 16];
        MessageBuffer large = a.allocateBuffer(64 * 1024);
        long sent = 0;
        long requests = 1;
        while (sent < 16_384 && (aside.taken.get() == 0 || aside.declined.get() == 0)) {
            body[0] = (byte) sent;
            sending.in.wantReadAside();
            s.send(1, large.clear().putLong(sent).putBytes(body).putLong(checksum(sent, body)));
            if (++sent % 64 == 0) {
                s.send(2, a.allocateBuffer(8).putLong(requests++));
            }
        }
        long streamed = sent;
        long replies = requests;
        Await.until(() -> next.get() == streamed && nextReply.get() == replies && thanked.get() == replies,
            Duration.ofSeconds(30), () -> next.get() + " of " + streamed + " RSRs, " + nextReply.get() + " of " + replies
                + " replies and " + thanked.get() + " answers to them arrived");
        assertEquals(List.of(), problems);
        assertTrue(aside.taken.get() > 0 && aside.declined.get() > 0, "in " + streamed + " RSRs of 64 KiB the sender took "
            + aside.taken.get() + " frames aside and handed " + aside.declined.get() + " back");
        TcpMethod ofA = tcp.method(0);
        TcpMethod ofB = tcp.method(1);
        Await.until(() -> ofA.statistics().messagesReceived() == ofB.statistics().messagesSent()
                && ofA.statistics().bytesReceived() == ofB.statistics().bytesSent(),
            Duration.ofSeconds(10), () -> "a: " + ofA.statistics() + ", b: " + ofB.statistics());
        assertEquals(0, ofA.statistics().errors() + ofB.statistics().errors());
    }

    /**
     * While a sender holds the read lock, the I/O thread takes reads off the socket's key rather
     * than be woken by it again and again until the sender reads, and sleeps; letting go of the
     * lock gives reads back and wakes it, so what came meanwhile is read.
     */
    @Test
    void theLoopLeavesTheSocketToASenderHoldingItsReadsAndReadsAgainWhenItLetsGo() {
        Context a = tcp.open();
        Context b = tcp.open();
        AtomicLong replies = new AtomicLong();
        Startpoint back = a.createEndpoint().register(1, (e, m) -> replies.incrementAndGet()).startpoint();
        Startpoint fromB = b.startpoint(back.toText());
        Endpoint sink = b.createEndpoint().register(2, (e, m) -> fromB.send(1, b.allocateBuffer(16).putLong(1)));
        in(a, sink.startpoint()).send(2, a.allocateBuffer(16).putLong(0));
        Await.until(() -> replies.get() == 1, Duration.ofSeconds(10), () -> "the first reply never came");
        TcpConnection sending = (TcpConnection) tcp.connection(0, 1);
        Inbound reads = sending.in;
        IoLoop loop = sending.loop;

        // What a sender does about to write at the sending end of a bulk stream, which the loop
        // marks by sharing reads; a heartbeat read in between may end the sharing, so again then.
        Await.until(() -> {
            reads.shareReads(true);
            return reads.trySenderRead();
        }, Duration.ofSeconds(10), () -> "the read lock was never free");
        try {
            fromB.send(1, b.allocateBuffer(16).putLong(2));
            Await.until(() -> reads.readsParked() && loop.asleep(), Duration.ofSeconds(10),
                () -> "the I/O thread never left the reads to the sender holding them and slept");
            fromB.send(1, b.allocateBuffer(16).putLong(3)); // to a key that no longer wakes the loop
        } finally {
            reads.releaseSenderRead();
        }
        Await.until(() -> replies.get() == 3, Duration.ofSeconds(10),
            () -> replies.get() - 1 + " of the 2 RSRs that came while a sender held the reads were read");
        assertFalse(reads.readsParked(), "reads are still parked after the sender let go");
    }

    /**
     * The I/O thread reading a conversation's channel directly stops the selector watching it,
     * and has it watched again before it sleeps, so what comes after the conversation is read.
     * The inline handlers, on the I/O threads, see whether the channel they were read from is
     * watched.
     */
    @Test
    void aConversationsChannelGoesUnwatchedWhileReadDirectlyAndIsWatchedAgainBeforeTheLoopSleeps() {
        Context a = tcp.open();
        Context b = tcp.open();
        int exchanges = 200;
        AtomicLong replies = new AtomicLong();
        AtomicReferenceArray<IoLoop> loops = new AtomicReferenceArray<>(2);
        AtomicBoolean unwatchedAtA = new AtomicBoolean();
        AtomicBoolean unwatchedAtB = new AtomicBoolean();
        Startpoint[] toB = new Startpoint[1];
        Startpoint back = a.createEndpoint().register(1, (e, m) -> {
            noteUnwatched(loops.get(0), unwatchedAtA);
            long n = replies.incrementAndGet();
            if (n < exchanges) {
                toB[0].send(2, a.allocateBuffer(16).putLong(n));
            }
        }).startpoint();
        Startpoint fromB = b.startpoint(back.toText());
        toB[0] = in(a, b.createEndpoint().register(2, (e, m) -> {
            noteUnwatched(loops.get(1), unwatchedAtB);
            fromB.send(1, b.allocateBuffer(16).putLong(m.getLong()));
        }).startpoint());
        toB[0].send(2, a.allocateBuffer(16).putLong(0));
        loops.set(0, ((TcpConnection) tcp.connection(0, 1)).loop);
        loops.set(1, ((TcpConnection) tcp.connection(1, 0)).loop);
        Await.until(() -> replies.get() == exchanges, Duration.ofSeconds(10),
            () -> replies.get() + " of " + exchanges + " replies came");
        assertTrue(unwatchedAtA.get() && unwatchedAtB.get(), "in " + exchanges + " request-reply exchanges the I/O"
            + " threads stopped the selector watching the conversation: a's " + unwatchedAtA.get() + ", b's "
            + unwatchedAtB.get());
        IoLoop loopA = loops.get(0);

        Await.until(() -> loopA.asleep() && loopA.watchesHot(), Duration.ofSeconds(10),
            () -> "a's I/O thread never slept with the conversation's channel watched");
        fromB.send(1, b.allocateBuffer(16).putLong(-1));
        Await.until(() -> replies.get() == exchanges + 1, Duration.ofSeconds(10),
            () -> "the RSR sent to a sleeping I/O thread after the conversation never arrived");
    }

    /** On the I/O thread, in a handler: notes whether the loop reads the conversation's channel unwatched. */
    private static void noteUnwatched(IoLoop loop, AtomicBoolean unwatched) {
        if (loop != null && !loop.watchesHot()) {
            unwatched.set(true);
        }
    }
}
