package io.polylink.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.polylink.LinkException;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.testkit.EchoStreams;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The contract of {@link CommunicationMethod} and {@link Connection}, one test per clause. A
 * method's build extends this class and says how to make the method:
 *
 * <pre>{@code
 * class UdpContractTest extends MethodContractTest {
 *     protected MethodUnderTest method() {
 *         return MethodUnderTest.of(() -> new UdpMethod(Map.of())).largestFrame(65_490)
 *             .dropsWhenReceiverLags().cannotTellPeerOfClose();
 *     }
 * }
 * }</pre>
 *
 * <p>Each test starts two instances of the method, side A and side B, each in a context of the
 * kit's own (it records the frames the method hands over and can stall, or refuse a frame, as the
 * core would), and A connects to B. The last test runs numbered RSR streams between two real
 * contexts over the method. Every test stops both instances, and one checks that no thread of the
 * method outlives {@code stop}.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public abstract class MethodContractTest {

    private static final Duration LIMIT = Duration.ofSeconds(20);
    /** No send returned for this long while the receiver stalls: the method holds senders back. */
    private static final long STALLED_NANOS = TimeUnit.MILLISECONDS.toNanos(300);
    /** A method that takes this much with its receiver stalled does not bound what it holds. */
    private static final long UNBOUNDED_BYTES = 1L << 30;

    private MethodUnderTest method;
    private Set<Thread> threadsBefore;
    private Side a;
    private Side b;

    /** @return the method under test, and what it declares of itself */
    protected abstract MethodUnderTest method();

    @BeforeEach
    final void startTwoInstances() {
        method = method();
        threadsBefore = liveThreads();
        a = new Side(method.factory().get()).start();
        b = new Side(method.factory().get()).start();
    }

    @AfterEach
    final void stopBothInstances() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
    }

    @Test
    void framesArriveWholeAndInOrderAtEverySizeUpToTheLargest() throws Exception {
        List<Integer> sizes = new ArrayList<>(new TreeSet<>(List.of(Frames.HEADER, Frames.HEADER + 1, 100, 4095, 4096,
            4097, 65_535, 65_536, 65_537, 1 << 20, method.largestFrame() - 1, method.largestFrame())));
        sizes.removeIf(size -> size < Frames.HEADER || size > method.largestFrame());
        Connection c = a.connect(b);
        int seq = 0;
        for (int size : sizes) {
            for (boolean direct : new boolean[] {false, true}) {
                send(c, 0, seq++, size, direct);
                if (method.losesFramesWhenReceiverLags()) {
                    b.awaitFrom(a, 0, LIMIT).awaitFrames(seq, LIMIT); // one at a time: nothing to drop
                }
            }
        }
        List<byte[]> frames = b.awaitFrom(a, 0, LIMIT).awaitFrames(seq, LIMIT);
        int expected = 0;
        for (byte[] frame : frames) {
            Frames.Id id = Frames.check(frame);
            assertEquals(expected++, id.seq(), "frames arrive in the order they were sent");
            assertEquals(sizes.get(id.seq() / 2), frame.length, "frame " + id.seq() + " keeps its size");
        }
    }

    /**
     * The core does not always split a frame after its own header: where the application lent the
     * end of a message, the header buffer carries the bytes before the loan too, a few hundred in
     * all, and the payload is a view into the application's memory, which may start anywhere in
     * its buffer.
     */
    @Test
    void framesArriveWholeWhereverTheHeaderEndsAndWhereverThePayloadLies() throws Exception {
        int length = Math.min(70_000, method.largestFrame());
        Connection c = a.connect(b);
        int seq = 0;
        for (int split : new int[] {Frames.HEADER, 100, 272}) {
            for (boolean direct : new boolean[] {false, true}) {
                ByteBuffer whole = ByteBuffer.allocate(length).put(Frames.header(0, seq, length))
                    .put(Frames.payload(0, seq, length, false)).flip();
                ByteBuffer memory = direct ? ByteBuffer.allocateDirect(length + 64) : ByteBuffer.allocate(length + 64);
                memory.put(64, whole, split, length - split); // the lent bytes, 64 bytes into their buffer
                c.send(whole.limit(split), memory.slice(64, length - split));
                if (method.losesFramesWhenReceiverLags()) {
                    b.awaitFrom(a, 0, LIMIT).awaitFrames(seq + 1, LIMIT);
                }
                seq++;
            }
        }
        List<byte[]> frames = b.awaitFrom(a, 0, LIMIT).awaitFrames(seq, LIMIT);
        for (int i = 0; i < seq; i++) {
            assertEquals(new Frames.Id(0, i), Frames.check(frames.get(i)), "frame " + i + " whole and in order");
            assertEquals(length, frames.get(i).length);
        }
    }

    @Test
    void theAcceptingSideKnowsTheDiallersContextIdAndAnswersOnTheSameConnection() throws Exception {
        Connection dialled = a.connect(b);
        assertEquals(b.contextId(), dialled.peer(), "the dialling side's connection names the peer it dialled");
        assertEquals(a.method.name(), dialled.method());
        send(dialled, 1, 0, 64, false);

        RecordingReceiver accepted = b.awaitFrom(a, 0, LIMIT);
        assertEquals(a.contextId(), accepted.connection.peer(),
            "the accepting side's connection names the dialler's context id, which the dialler gave");
        assertEquals(b.method.name(), accepted.connection.method());
        accepted.awaitFrames(1, LIMIT);
        send(accepted.connection, 2, 0, 64, false);
        List<byte[]> back = a.receiverOf(dialled, LIMIT).awaitFrames(1, LIMIT);
        assertEquals(new Frames.Id(2, 0), Frames.check(back.get(0)), "a reply on the accepted connection comes back");
        assertFalse(dialled.toString().isBlank(), "toString names the connection for log lines");
    }

    @Test
    void framesFromConcurrentSendersNeverInterleaveAndKeepEachSendersOrder() throws Exception {
        int senders = 4;
        int each = method.losesFramesWhenReceiverLags() ? 100 : 500;
        Connection c = a.connect(b);
        List<Thread> threads = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int s = 0; s < senders; s++) {
            int stream = s;
            Thread t = new Thread(() -> {
                try {
                    for (int seq = 0; seq < each; seq++) {
                        int size = Frames.HEADER + ThreadLocalRandom.current().nextInt(Math.min(8192,
                            method.largestFrame() - Frames.HEADER));
                        send(c, stream, seq, size, seq % 2 == 0);
                        if (method.losesFramesWhenReceiverLags()) {
                            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
                        }
                    }
                } catch (Throwable e) {
                    failure.set(e);
                }
            }, "tck-sender-" + s);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join(LIMIT.toMillis());
        }
        assertNull(failure.get(), () -> "a sender failed: " + failure.get());
        RecordingReceiver r = b.awaitFrom(a, 0, LIMIT);
        List<byte[]> frames = method.losesFramesWhenReceiverLags() ? settled(r) : r.awaitFrames(senders * each, LIMIT);
        assertInOrderPerStream(frames);
    }

    @Test
    void trySendSendsAWholeFrameOrConsumesNothing() throws Exception {
        Connection c = a.connect(b);
        int count = 1000;
        int taken = 0;
        for (int seq = 0; seq < count; seq++) {
            int size = Frames.HEADER + 1 + seq % 2000;
            ByteBuffer header = Frames.header(0, seq, size);
            ByteBuffer payload = Frames.payload(0, seq, size, seq % 2 == 1);
            if (seq % 2 == 0 && c.trySend(header, payload)) {
                taken++;
                assertEquals(0, header.remaining() + payload.remaining(), "a frame trySend took is consumed");
            } else {
                assertEquals(size, header.remaining() + payload.remaining(), "a frame trySend declined is untouched");
                c.send(header, payload);
            }
            if (method.losesFramesWhenReceiverLags() && seq % 50 == 49) {
                b.awaitFrom(a, 0, LIMIT).awaitFrames(seq + 1, LIMIT);
            }
        }
        List<byte[]> frames = b.awaitFrom(a, 0, LIMIT).awaitFrames(count, LIMIT);
        for (int seq = 0; seq < count; seq++) {
            assertEquals(new Frames.Id(0, seq), Frames.check(frames.get(seq)),
                "frames sent by trySend (" + taken + " of " + count / 2 + " taken) and send keep their order");
        }
    }

    @Test
    void aStalledReceiverHoldsSendsBackAndNothingSentIsLostOnceItGoesOn() throws Exception {
        Connection c = a.connect(b);
        RecordingReceiver r = firstFrame(c);
        r.stall();

        AtomicLong accepted = new AtomicLong(1);
        AtomicLong acceptedBytes = new AtomicLong();
        AtomicLong lastProgress = new AtomicLong(System.nanoTime());
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<LinkException> refused = new AtomicReference<>();
        int size = Math.min(16 << 10, method.largestFrame());
        Thread sender = new Thread(() -> {
            for (int seq = 1; !stop.get() && acceptedBytes.get() < UNBOUNDED_BYTES; seq++) {
                try {
                    send(c, 0, seq, size, false);
                } catch (LinkException e) {
                    refused.set(e); // the send timed out with the queue full: allowed, and the last one
                    return;
                }
                accepted.incrementAndGet();
                acceptedBytes.addAndGet(size);
                lastProgress.set(System.nanoTime());
            }
        }, "tck-stalled-sender");
        sender.start();
        try {
            long deadline = System.nanoTime() + LIMIT.toNanos();
            while (refused.get() == null && System.nanoTime() - lastProgress.get() < STALLED_NANOS
                    && acceptedBytes.get() < UNBOUNDED_BYTES && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
            if (!method.losesFramesWhenReceiverLags()) {
                assertTrue(acceptedBytes.get() < UNBOUNDED_BYTES && System.nanoTime() - deadline < 0,
                    () -> "sends went on taking frames while the receiver stalled: " + acceptedBytes.get()
                        + " bytes; a method queues a bounded amount, then makes senders wait or fail");
            }
        } finally {
            stop.set(true);
            r.release();
            sender.join(LIMIT.toMillis());
        }
        List<byte[]> frames = method.losesFramesWhenReceiverLags() ? settled(r) : r.awaitFrames((int) accepted.get(), LIMIT);
        assertInOrderPerStream(frames);
        if (!method.losesFramesWhenReceiverLags()) {
            assertEquals(accepted.get(), frames.size(), "every frame whose send returned arrived, and no other");
        }
    }

    @Test
    void closeTellsTheReceiverOnEachSideOnceAndSendsFailAfterIt() throws Exception {
        for (int round = 0; round < 2; round++) {
            boolean dialler = round == 0;
            int stream = round;
            Connection c = a.connect(b);
            send(c, stream, 0, 64, false);
            RecordingReceiver ours = a.receiverOf(c, LIMIT);
            RecordingReceiver theirs = b.awaitStream(a, stream, LIMIT);
            RecordingReceiver closing = dialler ? ours : theirs;
            RecordingReceiver other = dialler ? theirs : ours;
            String side = dialler ? "the dialling side" : "the accepting side";

            closing.connection.close();
            assertEquals(1, closing.closes(), side + "'s receiver is told of its own close by the time close returns");
            assertNull(closing.closeCause(), "an orderly close has no cause");
            assertFalse(closing.connection.isOpen());
            assertThrows(LinkException.class, () -> send(closing.connection, stream, 1, 64, false),
                "a send after close fails with LinkException");
            closing.connection.close();
            if (method.tellsPeerOnClose()) {
                assertTrue(other.awaitClosed(LIMIT), "the other side's receiver is told when " + side + " closes");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            assertEquals(1, closing.closes(), "onClosed comes once, however often close is called");
            assertTrue(other.closes() <= 1, "onClosed comes once");
        }
    }

    @Test
    void aFrameTheCoreRefusesAsMalformedClosesItsConnectionAndTheMethodGoesOn() throws Exception {
        b.refuse(frame -> Frames.check(frame).seq() == 3);
        Connection c = a.connect(b);
        for (int seq = 0; seq < 4; seq++) {
            send(c, 0, seq, 64, false);
        }
        RecordingReceiver refusing = b.awaitFrom(a, 0, LIMIT);
        assertTrue(refusing.awaitClosed(LIMIT), "the method closes a connection whose frame the core refused");
        assertEquals(4, refusing.frames().size(), "no frame after the refused one is handed over: "
            + refusing.frames().size());

        b.refuse(frame -> false);
        long deadline = System.nanoTime() + LIMIT.toNanos();
        int seq = 4;
        while (b.announcedFrom(a) < 2 || b.awaitFrom(a, 1, LIMIT).frames().isEmpty()) {
            if (System.nanoTime() - deadline > 0) {
                fail("no frame arrived on a new connection after the refused one closed its own");
            }
            try {
                send(a.connect(b), 0, seq++, 64, false);
            } catch (LinkException closing) {
                // the old connection is being closed: connect again
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    @Test
    void aFrameLargerThanTheLargestFailsItsSendWithLinkExceptionAndTheConnectionGoesOn() throws Exception {
        Connection c = a.connect(b);
        int tooLarge = method.largestFrame() + 1;
        ByteBuffer header = Frames.header(0, 0, tooLarge);
        ByteBuffer payload = Frames.payload(0, 0, tooLarge, false);
        assertThrows(LinkException.class, () -> c.send(header, payload), "a frame of " + tooLarge
            + " bytes, one more than the largest");
        assertTrue(c.isOpen(), "the connection stays open");
        send(c, 0, 1, 64, false);
        List<byte[]> frames = b.awaitFrom(a, 0, LIMIT).awaitFrames(1, LIMIT);
        assertEquals(new Frames.Id(0, 1), Frames.check(frames.get(0)), "the next frame arrives, and only it");
    }

    @Test
    void aStoppedMethodStartsAgainAndServes() throws Exception {
        send(a.connect(b), 0, 0, 64, false);
        b.awaitFrom(a, 0, LIMIT).awaitFrames(1, LIMIT);
        a.method.stop();
        b.method.stop();
        a.method.stop();

        a.start();
        b.start();
        int before = b.announcedFrom(a);
        send(a.connect(b), 0, 1, 64, false);
        List<byte[]> frames = b.awaitFrom(a, before, LIMIT).awaitFrames(1, LIMIT);
        assertEquals(new Frames.Id(0, 1), Frames.check(frames.get(0)), "the restarted method carries frames");
    }

    @Test
    void stopLeavesNoThreadOfTheMethod() throws Exception {
        Connection c = a.connect(b);
        RecordingReceiver r = firstFrame(c);
        send(r.connection, 0, 0, 64, false);
        a.receiverOf(c, LIMIT).awaitFrames(1, LIMIT);

        a.close();
        b.close();
        long deadline = System.nanoTime() + LIMIT.toNanos();
        Set<String> left = newThreads();
        while (!left.isEmpty()) {
            if (System.nanoTime() - deadline > 0) {
                fail("threads the method started are alive " + LIMIT + " after stop: " + left);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            left = newThreads();
        }
    }

    /**
     * {@link CommunicationMethod#progress}, which a method need not support (the default returns
     * 0): called all the while frames stream in, it returns at once and loses, duplicates or
     * reorders nothing, whichever thread receives; and it returns 0 before start and after stop.
     */
    @Test
    void progressNeverBlocksNorLosesAFrameAndReturnsZeroBeforeStartAndAfterStop() throws Exception {
        assertEquals(0, method.factory().get().progress(), "progress() of a method never started");
        Connection c = a.connect(b);
        RecordingReceiver r = firstFrame(c);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong slowest = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                while (!stop.get()) {
                    long start = System.nanoTime();
                    int received = b.method.progress();
                    slowest.accumulateAndGet(System.nanoTime() - start, Math::max);
                    if (received < 0) {
                        throw new AssertionError("progress() returned " + received);
                    }
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "tck-progress");
        caller.start();
        int frames = method.losesFramesWhenReceiverLags() ? 200 : 2000;
        try {
            for (int seq = 1; seq <= frames; seq++) {
                send(c, 0, seq, Frames.HEADER + seq % 1500, seq % 2 == 0);
                if (method.losesFramesWhenReceiverLags()) {
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
                }
            }
            List<byte[]> received = method.losesFramesWhenReceiverLags() ? settled(r) : r.awaitFrames(frames + 1, LIMIT);
            assertInOrderPerStream(received);
        } finally {
            stop.set(true);
            caller.join(LIMIT.toMillis());
        }
        assertFalse(caller.isAlive(), "a progress() call did not return within " + LIMIT);
        assertNull(failure.get(), () -> "progress() failed: " + failure.get());
        assertTrue(slowest.get() < TimeUnit.SECONDS.toNanos(1), "a progress() call took " + slowest.get()
            + " ns: it must never wait for another thread");
        b.method.stop();
        assertEquals(0, b.method.progress(), "progress() after stop");
    }

    @Test
    void twoRealContextsExchangeNumberedRsrStreamsOverTheMethod() throws Exception {
        a.close();
        b.close();
        String name = a.method.name();
        Map<String, Object> core = Map.of("table", name);
        try (EmbeddedContext here = EmbeddedContext.open(core).add(method.factory().get(), 10);
             EmbeddedContext there = EmbeddedContext.open(core).add(method.factory().get(), 10);
             EchoStreams streams = new EchoStreams(here.context(), 2, 16,
                 Math.min(1024, method.largestFrame() / 2))) {
            Startpoint target = here.context().startpoint(there.systemStartpoint().toText()).pin(name);
            streams.begin(name, target, streams.sink());
            streams.awaitEchoes(2000, LIMIT);
            EchoStreams.Result result = streams.end(LIMIT);
            assertTrue(result.perfect(), () -> "RSRs between two contexts over " + name + ": " + result);
        }
    }

    /** @return B's receiver of A's connection {@code c}, once frame 0 went over it */
    private RecordingReceiver firstFrame(Connection c) throws InterruptedException {
        send(c, 0, 0, 64, false);
        RecordingReceiver r = b.awaitFrom(a, 0, LIMIT);
        r.awaitFrames(1, LIMIT);
        return r;
    }

    /** Sends frame {@code seq} of {@code stream}, {@code length} bytes, with its payload on the heap or direct. */
    private static void send(Connection c, int stream, int seq, int length, boolean direct) {
        c.send(Frames.header(stream, seq, length), Frames.payload(stream, seq, length, direct));
    }

    /** @return the frames once no more came for half a second (a lossy method's stream has no known end) */
    private static List<byte[]> settled(RecordingReceiver r) {
        int seen = -1;
        while (r.frames().size() != seen) {
            seen = r.frames().size();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
        }
        return r.frames();
    }

    /** Each frame whole, and each stream's frames in order with none twice. */
    private static void assertInOrderPerStream(List<byte[]> frames) {
        Map<Integer, Integer> last = new HashMap<>();
        for (byte[] frame : frames) {
            Frames.Id id = Frames.check(frame);
            Integer before = last.put(id.stream(), id.seq());
            if (before != null && id.seq() <= before) {
                fail("frame " + id.seq() + " of stream " + id.stream() + " arrived after frame " + before
                    + ": frames of one sender arrive once and in order");
            }
        }
    }

    /** JUnit's timeout watcher, which starts with the first test method, after the threads before it were taken. */
    private static final String JUNIT_WATCHER = "junit-jupiter-timeout-watcher";

    private static Set<Thread> liveThreads() {
        return Set.copyOf(Thread.getAllStackTraces().keySet());
    }

    /**
     * @return the threads alive now, in the test's thread group, that were not before the test;
     *     not the test's own, which JUnit may have started for it (a timeout run in a thread of its own)
     */
    private Set<String> newThreads() {
        Thread self = Thread.currentThread();
        ThreadGroup group = self.getThreadGroup();
        Set<String> names = new TreeSet<>();
        for (Thread t : liveThreads()) {
            if (t != self && !threadsBefore.contains(t) && t.getThreadGroup() == group
                && !t.getName().equals(JUNIT_WATCHER)) {
                names.add(t.getName());
            }
        }
        return names;
    }
}
