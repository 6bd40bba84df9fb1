package io.polylink.method.shm.internal;

import static io.polylink.method.shm.internal.ShmContexts.heldAtFirstRsr;
import static io.polylink.method.shm.internal.ShmContexts.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.Startpoint;
import io.polylink.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link Context#progress} over shm: a caller reads its context's inbox on its own thread while
 * the poller stands back, one thread reads at a time, and the poller takes over once calls stop.
 */
class ShmProgressTest {

    /** Park as soon as the ring is empty, as a rank's runtime does: the poller holds the ring least. */
    private static final Map<String, Object> PARKING = Map.of("idleStrategy", "park");

    @RegisterExtension
    final ShmContexts contexts = new ShmContexts();

    @Test
    void aCallerThatWaitsForAnRsrRunsItsHandlerOnItsOwnThread() {
        Context a = contexts.context(PARKING);
        Context b = contexts.context(PARKING);
        List<Thread> ran = new CopyOnWriteArrayList<>();
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> ran.add(Thread.currentThread())).startpoint());
        int onCaller = 0;
        int received = 0;
        for (int i = 1; i <= 200; i++) {
            s.send(1, a.allocateBuffer(0));
            int expected = i;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ran.size() < expected) {
                received += b.progress();
                assertTrue(System.nanoTime() < deadline, "RSR " + i + " did not arrive within 10 s");
            }
            onCaller += ran.get(i - 1) == Thread.currentThread() ? 1 : 0;
        }
        // The poller takes a turn after each nap and may meet an RSR then; a caller that keeps calling meets most.
        assertTrue(onCaller > 100, onCaller + " of 200 handlers ran on the calling thread");
        assertTrue(received >= onCaller, "progress() said it received " + received + ", handlers ran " + onCaller);
        assertEquals(200, ran.size());
    }

    @Test
    void aCallWhileThePollerIsInAHandlerReturnsAtOnceWithNothing() throws Exception {
        Context a = contexts.context();
        Context b = contexts.context();
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong received = new AtomicLong();
        Startpoint held = heldAtFirstRsr(a, b, release, received);
        try {
            held.send(1, a.allocateBuffer(0));
            held.send(1, a.allocateBuffer(0));
            Await.until(() -> received.get() == 1, Duration.ofSeconds(5), () -> "b's poller never took the RSR");
            // The second RSR waits in the ring, but the poller holds it: the caller gets nothing and does not wait.
            int got = CompletableFuture.supplyAsync(b::progress).get(5, TimeUnit.SECONDS);
            assertEquals(0, got);
            assertEquals(1, received.get(), "a caller read the ring while the poller held it");
        } finally {
            release.countDown();
        }
        Await.until(() -> received.get() == 2, Duration.ofSeconds(5), () -> "the second RSR never came");
    }

    @Test
    void thePollerTakesOverOnceCallsStop() {
        Context a = contexts.context(PARKING);
        Context b = contexts.context(PARKING);
        List<Thread> ran = new CopyOnWriteArrayList<>();
        Startpoint s = linkWithFirstArrived(a, b, ran);
        // Nobody calls now: the poller must find the next RSR by itself.
        s.send(1, a.allocateBuffer(0));
        Await.until(() -> ran.size() == 2, Duration.ofSeconds(5), () -> "the poller did not take over once calls stopped");
        assertNotEquals(Thread.currentThread(), ran.get(1));
        assertTrue(ran.get(1).getName().startsWith("polylink-shm-io"), ran.get(1).getName());
    }

    /**
     * A poller that naps a minute between its turns while callers receive comes back for the next
     * RSR only because the caller hands receiving back: without it, the RSR would wait the minute.
     */
    @Test
    void thePollerTakesOverAtOnceWhenTheCallerHandsReceivingBack() {
        Context a = contexts.context(PARKING);
        Context b = contexts.context(Map.of("idleStrategy", "park", "standBackMs", 60_000));
        List<Thread> ran = new CopyOnWriteArrayList<>();
        Startpoint s = linkWithFirstArrived(a, b, ran);
        // Calls keep coming for a while, so the poller stands back into its minute's nap.
        for (int i = 0; i < 20_000; i++) {
            b.progress();
        }
        b.handBackReceiving();
        s.send(1, a.allocateBuffer(0));
        Await.until(() -> ran.size() == 2, Duration.ofSeconds(10),
            () -> "the poller did not take over when receiving was handed back");
        assertTrue(ran.get(1).getName().startsWith("polylink-shm-io"), ran.get(1).getName());
        // A caller that comes again receives as before.
        s.send(1, a.allocateBuffer(0));
        Await.until(() -> {
            b.progress();
            return ran.size() == 3;
        }, Duration.ofSeconds(10), () -> "the third RSR never came");
    }

    /**
     * @return a startpoint from {@code a} to an endpoint of {@code b} whose handler adds its thread
     *     to {@code ran}, once a first RSR sent with it arrived while this thread called {@code b}'s
     *     {@link Context#progress}
     */
    private static Startpoint linkWithFirstArrived(Context a, Context b, List<Thread> ran) {
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> ran.add(Thread.currentThread())).startpoint());
        s.send(1, a.allocateBuffer(0));
        Await.until(() -> {
            b.progress();
            return ran.size() == 1;
        }, Duration.ofSeconds(10), () -> "the first RSR never came");
        return s;
    }

    @Test
    void aStreamReadByACallerAndThenByThePollerArrivesWholeAndInOrder() throws Exception {
        Context a = contexts.context(PARKING);
        Context b = contexts.context(PARKING);
        int half = 25_000;
        AtomicInteger next = new AtomicInteger();
        AtomicInteger wrong = new AtomicInteger(-1);
        AtomicInteger onCaller = new AtomicInteger();
        AtomicInteger secondHalfOnPoller = new AtomicInteger();
        Thread caller = new Thread(() -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (next.get() < half && System.nanoTime() < deadline) {
                b.progress();
            }
        }, "polylink-test-caller");
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> {
            int n = m.getInt();
            if (n != next.getAndIncrement()) {
                wrong.compareAndSet(-1, n);
            }
            if (Thread.currentThread() == caller) {
                onCaller.incrementAndGet();
            } else if (n >= half && Thread.currentThread().getName().startsWith("polylink-shm-io")) {
                secondHalfOnPoller.incrementAndGet();
            }
        }).startpoint());
        caller.start();
        try {
            for (int i = 0; i < half; i++) {
                s.send(1, a.allocateBuffer(4).putInt(i));
            }
            Await.until(() -> next.get() >= half, Duration.ofSeconds(30), () -> next.get() + " of " + half + " arrived");
        } finally {
            caller.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertTrue(!caller.isAlive(), "the caller did not stop");
        // Nobody calls any more: the second half is the poller's alone.
        for (int i = half; i < 2 * half; i++) {
            s.send(1, a.allocateBuffer(4).putInt(i));
        }
        Await.until(() -> next.get() == 2 * half, Duration.ofSeconds(30),
            () -> next.get() + " of " + 2 * half + " RSRs arrived");
        assertEquals(-1, wrong.get(), "an RSR came out of order: " + wrong.get());
        System.out.println(onCaller.get() + " of the first " + half + " RSRs were read by the caller");
        assertTrue(onCaller.get() > 0, "the caller read none of the first half");
        assertEquals(half, secondHalfOnPoller.get(), "the second half was not all read by the poller");
    }

    @Test
    void aClosedContextReceivesNothingAndSaysSo() {
        Context b = contexts.context();
        contexts.embedded(0).close();
        assertEquals(0, b.progress());
    }
}
