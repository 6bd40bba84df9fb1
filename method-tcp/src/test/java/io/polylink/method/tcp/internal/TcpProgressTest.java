package io.polylink.method.tcp.internal;

import static io.polylink.method.tcp.internal.TcpContexts.checksum;
import static io.polylink.method.tcp.internal.TcpContexts.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.testkit.Await;
import io.polylink.testkit.SequenceCheck;
import io.polylink.testkit.ThreadCpu;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.LongToIntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code Context.progress()} over tcp, between two contexts in this JVM on 127.0.0.1: the caller
 * receives in the I/O thread's place, one thread at a time, and the I/O thread takes over when the
 * calls stop. The receiving side's I/O thread blocks when idle, as an MPI rank's does.
 */
class TcpProgressTest {

    private static final Map<String, Object> BLOCKING = Map.of("bindAddress", "127.0.0.1", "idleStrategy", "block");
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private final TcpContexts tcp = new TcpContexts();
    private final ExecutorService callers = Executors.newCachedThreadPool(r -> new Thread(r, "test-caller"));

    @AfterEach
    void close() throws InterruptedException {
        callers.shutdownNow();
        assertTrue(callers.awaitTermination(10, TimeUnit.SECONDS), "a caller did not stop");
        tcp.close();
    }

    /**
     * One RSR at a time, each awaited by calling {@code progress()}: handlers run on the calling
     * thread. Not every one: the I/O thread takes the RSRs that come while it holds its turn (when
     * the caller lost its core for a nap's length, the I/O thread blocks again and wakes for the
     * next RSR itself), so the test goes on until ten ran on the caller, or ten seconds passed.
     */
    @Test
    void aCallersProgressRunsTheHandlerOfAnRsrOnTheCallingThread() {
        Context a = tcp.open();
        Context b = tcp.open(BLOCKING);
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> ranOn.set(Thread.currentThread())).startpoint());
        int onCaller = 0;
        int rounds = 0;
        long end = System.nanoTime() + LIMIT.toNanos();
        while (onCaller < 10 && System.nanoTime() - end < 0) {
            ranOn.set(null);
            s.send(1, a.allocateBuffer(4).putInt(rounds));
            progressUntil(b, () -> ranOn.get() != null, "RSR " + rounds + " handled");
            onCaller += ranOn.get() == Thread.currentThread() ? 1 : 0;
            rounds++;
        }
        System.out.printf("%d of %d handlers ran on the thread calling progress()%n", onCaller, rounds);
        assertEquals(10, onCaller, "handlers of " + rounds + " RSRs in " + LIMIT + " that ran on the thread calling "
            + "progress(): the I/O thread received the others");
    }

    /**
     * A conversation, each RSR answered, with a caller that calls only every 200 µs or so (it
     * computes between calls): the socket the loop reads directly, unwatched by the selector, is
     * still read by calls that come too late to read it directly, and by the loop between them.
     */
    @Test
    void aConversationGoesOnWhileACallerCallsOnlyNowAndThen() {
        Context a = tcp.open(BLOCKING);
        Context b = tcp.open(BLOCKING);
        int rounds = 300;
        AtomicInteger answered = new AtomicInteger();
        AtomicReference<Startpoint> toB = new AtomicReference<>();
        Startpoint toA = in(b, a.createEndpoint().register(1, (e, m) -> {
            if (answered.incrementAndGet() < rounds) {
                toB.get().send(1, m);
            }
        }).startpoint());
        Thread self = Thread.currentThread();
        AtomicInteger onCaller = new AtomicInteger();
        toB.set(in(a, b.createEndpoint().register(1, (e, m) -> {
            if (Thread.currentThread() == self) {
                onCaller.incrementAndGet();
            }
            toA.send(1, m);
        }).startpoint()));
        toB.get().send(1, a.allocateBuffer(4).putInt(0));
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (answered.get() < rounds) {
            b.progress();
            long computing = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(200);
            while (System.nanoTime() - computing < 0) {
                Thread.onSpinWait();
            }
            assertTrue(System.nanoTime() - deadline < 0, answered.get() + " of " + rounds + " round trips within "
                + LIMIT + " while a caller called every 200 µs");
        }
        System.out.printf("%d of %d RSRs were received by a caller that called every 200 µs%n", onCaller.get(), rounds);
    }

    @Test
    void aCallWhileAnotherThreadReceivesReturnsZeroAtOnceAndAHandlerCallingInFindsNothing() throws Exception {
        Context a = tcp.open();
        Context b = tcp.open(BLOCKING);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger fromHandler = new AtomicInteger(-1);
        AtomicReference<Thread> caller = new AtomicReference<>();
        AtomicInteger arrived = new AtomicInteger();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> {
            arrived.incrementAndGet();
            if (Thread.currentThread() == caller.get() && held.getCount() > 0) {
                fromHandler.set(b.progress());
                held.countDown();
                release.await(LIMIT.toSeconds(), TimeUnit.SECONDS);
            }
        }).startpoint());
        AtomicBoolean stop = new AtomicBoolean();
        Future<?> receiving = callers.submit(() -> {
            caller.set(Thread.currentThread());
            while (held.getCount() > 0 && !stop.get()) {
                b.progress();
            }
        });
        try {
            // Until one RSR's handler holds the caller's pass: the I/O thread may take one in its turn.
            Await.until(() -> {
                s.send(1, a.allocateBuffer(4).putInt(0));
                return awaited(held, 1);
            }, LIMIT, () -> "no RSR's handler ran on the thread calling progress()");
            for (int i = 0; i < 1000; i++) {
                long start = System.nanoTime();
                assertEquals(0, b.progress(), "a call while another thread receives");
                long took = System.nanoTime() - start;
                assertTrue(took < TimeUnit.SECONDS.toNanos(1), "a call while another thread receives took " + took
                    + " ns: it must return at once");
            }
            assertEquals(0, fromHandler.get(), "progress() from a handler running inside progress()");
            int before = arrived.get();
            s.send(1, a.allocateBuffer(4).putInt(1));
            release.countDown();
            Await.until(() -> arrived.get() > before, LIMIT, () -> "the RSR sent while the caller held the turn is lost");
        } finally {
            stop.set(true);
            release.countDown();
            receiving.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    @Test
    void rsrsKeepArrivingOnTheIoThreadOnceTheCallerStops() throws Exception {
        Context a = tcp.open();
        Context b = tcp.open(BLOCKING);
        AtomicReference<String> ranOn = new AtomicReference<>();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> ranOn.set(Thread.currentThread().getName()))
            .startpoint());
        for (int i = 0; i < 20; i++) {
            ranOn.set(null);
            s.send(1, a.allocateBuffer(4).putInt(i));
            progressUntil(b, () -> ranOn.get() != null, "RSR " + i + " handled");
        }
        long lastCall = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            ranOn.set(null);
            long sent = System.nanoTime();
            s.send(1, a.allocateBuffer(4).putInt(i));
            Await.until(() -> ranOn.get() != null, LIMIT, () -> "an RSR sent after the calls stopped did not arrive "
                + "within " + LIMIT + ": the I/O thread did not take over");
            if (i == 0) {
                System.out.printf("the first RSR after the calls stopped arrived %d µs after it was sent, %d µs after "
                    + "the last call%n", TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - sent),
                    TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - lastCall));
            }
            assertTrue(ranOn.get().startsWith("polylink-tcp-io"), "with nobody calling, RSR " + i + " ran on "
                + ranOn.get());
        }
    }

    @Test
    void aLongStreamWithACallerPollingPartOfTheTimeLosesDuplicatesAndReordersNothing() throws Exception {
        Context a = tcp.open();
        Context b = tcp.open(BLOCKING);
        SequenceCheck check = new SequenceCheck();
        AtomicLong onCaller = new AtomicLong();
        AtomicReference<Thread> caller = new AtomicReference<>();
        Startpoint s = in(a, numbered(b, check, () -> {
            if (Thread.currentThread() == caller.get()) {
                onCaller.incrementAndGet();
            }
        }).startpoint());
        int total = 100_000;
        AtomicBoolean stop = new AtomicBoolean();
        Future<?> polling = callers.submit(() -> {
            caller.set(Thread.currentThread());
            while (!stop.get()) {
                long burst = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
                while (System.nanoTime() - burst < 0) {
                    b.progress();
                }
                long away = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
                while (System.nanoTime() - away < 0 && !stop.get()) {
                    Thread.onSpinWait(); // the application computes: the I/O thread takes over
                }
            }
        });
        streamAndAwait(check, total, stop, polling, s, a.allocateBuffer(2048), i -> (int) (i % 1500));
        System.out.printf("%d of %d RSRs were received by the caller%n", onCaller.get(), total);
        assertTrue(onCaller.get() > 0, "the caller received none of the stream");
    }

    @Test
    void writesTheSocketCouldNotTakeGoOutWhileACallerReceivesInTheIoThreadsPlace() throws Exception {
        Context a = tcp.open();
        Context b = tcp.open(BLOCKING);
        SequenceCheck check = new SequenceCheck();
        Startpoint s = in(b, numbered(a, check, () -> { }).startpoint());
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong calls = new AtomicLong();
        Future<?> polling = callers.submit(() -> {
            while (!stop.get()) {
                b.progress();
                calls.incrementAndGet();
            }
        });
        streamAndAwait(check, 5_000, stop, polling, s, b.allocateBuffer(20_000), i -> 16 << 10);
        assertTrue(calls.get() > 0, "the caller never called");
    }

    /**
     * A caller of a context whose tcp has no connection (an MPI rank whose peers are all reached
     * by shm) finds nothing to read, and its calls leave the I/O thread blocked in its selector:
     * they neither wake it nor make it stand back and nap between turns.
     */
    @Test
    void callsWithNoConnectionLeaveTheIoThreadBlockedInItsSelector() throws Exception {
        Context b = tcp.open(BLOCKING);
        List<Thread> io = Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().startsWith("polylink-tcp-io")).toList();
        assertEquals(1, io.size(), "one I/O thread: " + io);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong calls = new AtomicLong();
        AtomicLong received = new AtomicLong();
        Future<?> polling = callers.submit(() -> {
            while (!stop.get()) {
                received.addAndGet(b.progress());
                calls.incrementAndGet();
            }
        });
        ThreadCpu used = ThreadCpu.measure(io, Duration.ofSeconds(1));
        stop.set(true);
        polling.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
        System.out.printf("%d calls with no connection; I/O thread: %s%n", calls.get(), used.each());
        assertTrue(calls.get() > 0, "the caller never called");
        assertEquals(0, received.get(), "nothing to receive");
        assertTrue(used.share() < 0.002, "the I/O thread ran while the caller called: " + used.each());
    }

    @Test
    void progressReturnsZeroBeforeStartAndAfterStopAndNoThreadOrSocketIsLeft() throws Exception {
        long socketsBefore = sockets();
        TcpMethod unstarted = new TcpMethod(BLOCKING);
        assertEquals(0, unstarted.progress(), "before start");
        Context a = tcp.open();
        Context b = tcp.open(BLOCKING);
        AtomicInteger arrived = new AtomicInteger();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> arrived.incrementAndGet()).startpoint());
        s.send(1, a.allocateBuffer(4).putInt(0));
        progressUntil(b, () -> arrived.get() == 1, "the RSR handled");
        AtomicBoolean stop = new AtomicBoolean();
        Future<?> polling = callers.submit(() -> {
            while (!stop.get()) {
                b.progress();
            }
        });
        TcpMethod method = tcp.method(1);
        tcp.embedded(1).remove(method);
        method.stop();
        assertEquals(0, method.progress(), "after stop");
        stop.set(true);
        polling.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
        tcp.close();
        Await.until(() -> sockets() <= socketsBefore, LIMIT, () -> (sockets() - socketsBefore)
            + " sockets left open after both contexts closed");
    }

    /** @return an endpoint in {@code in} whose handler 1 checks numbered, checksummed RSRs into {@code check}, then runs {@code then} */
    private static Endpoint numbered(Context in, SequenceCheck check, Runnable then) {
        return in.createEndpoint().register(1, (e, m) -> {
            long seq = m.getLong();
            byte[] body = m.getBytes();
            check.accept(seq, m.getLong() == checksum(seq, body));
            then.run();
        });
    }

    /** @return {@code length} bytes of {@code seq}'s body */
    private static byte[] body(int length, long seq) {
        byte[] body = new byte[length];
        Arrays.fill(body, (byte) seq);
        return body;
    }

    /**
     * Sends RSRs 0 to {@code total - 1} on {@code s} through {@code message}, each its number, a
     * body of {@code length} bytes and a checksum, waits until all arrived, stops the caller and
     * checks the stream.
     */
    private static void streamAndAwait(SequenceCheck check, int total, AtomicBoolean stop, Future<?> caller,
                                       Startpoint s, MessageBuffer message, LongToIntFunction length)
            throws Exception {
        try {
            for (long i = 0; i < total; i++) {
                byte[] body = body(length.applyAsInt(i), i);
                s.send(1, message.clear().putLong(i).putBytes(body).putLong(checksum(i, body)));
            }
            Await.until(() -> check.delivered() >= total, Duration.ofSeconds(60),
                () -> check.delivered() + " of " + total + " arrived");
        } finally {
            stop.set(true);
            caller.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
        }
        assertTrue(check.perfect(total), () -> check.summary(total));
    }

    /** Calls {@code c.progress()} without pause until {@code done}, for at most {@link #LIMIT}. */
    private static void progressUntil(Context c, BooleanSupplier done, String what) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!done.getAsBoolean()) {
            c.progress();
            assertTrue(System.nanoTime() - deadline < 0, "not within " + LIMIT + ": " + what);
        }
    }

    /** @return whether {@code latch} reached 0 within {@code millis} */
    private static boolean awaited(CountDownLatch latch, long millis) {
        try {
            return latch.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** @return the sockets this JVM holds open */
    private static long sockets() {
        long n = 0;
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : fds) {
                try {
                    n += Files.readSymbolicLink(fd).toString().startsWith("socket:") ? 1 : 0;
                } catch (IOException closedMeanwhile) {
                    // not a socket any longer
                }
            }
        } catch (IOException e) {
            throw new AssertionError("cannot list /proc/self/fd", e);
        }
        return n;
    }
}
