package io.polylink.method.tcp.internal.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The receiving turn alone, between a loop's thread that does what {@link IoLoop}'s does with the
 * turn and callers on threads of their own.
 */
class ReceivingTurnTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);

    private final AtomicBoolean stop = new AtomicBoolean();
    private final ExecutorService callers = Executors.newCachedThreadPool(r -> new Thread(r, "polylink-test-caller"));

    @AfterEach
    void stopCallers() throws InterruptedException {
        stop.set(true);
        callers.shutdownNow();
        assertTrue(callers.awaitTermination(LIMIT.toSeconds(), TimeUnit.SECONDS), "a caller did not stop");
    }

    @Test
    void oneThreadAtATimeHoldsTheTurnWhileSeveralCallersAndTheLoopContend() throws Exception {
        Passes passes = new Passes();
        int perCaller = 5_000;
        try (Loop loop = new Loop(passes)) {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                running.add(callers.submit(() -> {
                    Thread me = Thread.currentThread();
                    long deadline = System.nanoTime() + LIMIT.toNanos();
                    for (int taken = 0; taken < perCaller && !stop.get(); ) {
                        if (loop.turn.tryTake(me)) {
                            try {
                                passes.pass();
                            } finally {
                                loop.turn.release();
                            }
                            taken++;
                        }
                        if (System.nanoTime() - deadline > 0) {
                            throw new AssertionError(me.getName() + " got the turn " + taken + " of " + perCaller
                                + " times within " + LIMIT);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> caller : running) {
                caller.get(LIMIT.toSeconds() * 2, TimeUnit.SECONDS);
            }
            assertTrue(loop.stoodBack.get() > 0, "the loop never stood back while callers came");
        }
        assertEquals(0, passes.overlaps.get(), "passes that overlapped another");
        assertEquals(passes.all.get(), passes.plain, "a count kept only by the turn's holder lost updates");
    }

    @Test
    void aCallWhileAnotherThreadHoldsTheTurnFailsAtOnce() throws Exception {
        try (Loop loop = new Loop(); Holding holding = hold(loop.turn)) {
            assertTrue(loop.turn.heldBy(holding.thread), "heldBy(the caller holding the turn)");
            assertFalse(loop.turn.heldBy(Thread.currentThread()), "heldBy(a caller that failed)");
            assertFalse(loop.turn.heldBy(loop.thread), "heldBy(the loop) while a caller holds the turn");
            for (int i = 0; i < 1000; i++) {
                assertCallFails(loop.turn, "while another caller held the turn");
            }
        }
    }

    @Test
    void aCallBeforeTheLoopStartsFails() {
        ReceivingTurn turn = new ReceivingTurn(new Thread(() -> { }, "polylink-test-loop"), ReceivingTurn.NAP_NANOS);
        assertCallFails(turn, "before the loop's thread started");
        assertTrue(turn.called(), "a call that failed did not tell the loop a caller came");
    }

    /** The loop stands back only while calls come: after the last, it has its own turns again within a nap or so. */
    @Test
    void theLoopTakesTheTurnBackOnceCallsStop() throws Exception {
        try (Loop loop = new Loop()) {
            Thread me = Thread.currentThread();
            long deadline = System.nanoTime() + LIMIT.toNanos();
            long lastCall;
            do {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("the loop stood back " + loop.stoodBack.get() + " times within " + LIMIT
                        + " while a caller called without pause");
                }
                lastCall = System.nanoTime(); // before the call: the loop may take over before this thread goes on
                if (loop.turn.tryTake(me)) {
                    loop.turn.release();
                }
            } while (loop.stoodBack.get() < 10);
            long calledAt = lastCall;
            Await.until(() -> loop.tookBackAt - calledAt > 0 && loop.turn.heldBy(loop.thread), LIMIT,
                () -> "the loop had no turn of its own after the calls stopped");
            long after = loop.tookBackAt - calledAt;
            long turnsThen = loop.ownTurns.get();
            Await.until(() -> loop.ownTurns.get() > turnsThen + 100, LIMIT,
                () -> "the loop stopped having turns of its own after the calls stopped");
            assertTrue(loop.turn.heldBy(loop.thread), "the loop let go of the turn with nobody calling");
            System.out.printf("the loop had its first turn of its own %d µs after the last call%n",
                TimeUnit.NANOSECONDS.toMicros(after));
        }
    }

    /**
     * A loop that naps a minute between its turns while callers come takes the turn back as soon
     * as they hand it back, not after the minute.
     */
    @Test
    void theLoopTakesTheTurnBackAtOnceWhenCallersHandItBack() throws Exception {
        try (Loop loop = new Loop(new Passes(), TimeUnit.MINUTES.toNanos(1))) {
            Thread me = Thread.currentThread();
            Await.until(() -> {
                if (loop.turn.tryTake(me)) {
                    loop.turn.release();
                }
                return loop.stoodBack.get() == 0 && loop.turn.called() && loop.turn.heldBy(null);
            }, LIMIT, () -> "the loop never stood back for a caller");
            long turnsBefore = loop.ownTurns.get();
            loop.turn.handBack();
            Await.until(() -> loop.ownTurns.get() > turnsBefore, LIMIT,
                () -> "the loop did not take the turn back when the caller handed it back");
        }
    }

    @Test
    void closeWaitsForACallersLastPassAndThenNoCallerGetsTheTurn() throws Exception {
        try (Loop loop = new Loop()) {
            try (Holding holding = hold(loop.turn)) {
                loop.close();
                AtomicBoolean passEnded = new AtomicBoolean();
                Future<Thread> closing = callers.submit(() -> {
                    Thread left = loop.turn.awaitLastPass(LIMIT.toNanos());
                    passEnded.set(holding.handingBack.get());
                    return left;
                });
                Await.until(() -> closing.isDone() || blockedOnTurn(loop.turn), LIMIT,
                    () -> "the closing thread never waited for the caller's pass");
                assertFalse(closing.isDone(), "awaitLastPass returned while a caller's pass was under way");
                holding.letGo();
                assertNull(closing.get(LIMIT.toSeconds(), TimeUnit.SECONDS), "awaitLastPass gave up on a pass that "
                    + "ended");
                assertTrue(passEnded.get(), "awaitLastPass returned before the caller handed the turn back");
            }
            assertTrue(loop.turn.heldBy(loop.thread), "the turn is not kept for the stopped loop");
            List<Future<?>> late = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                late.add(callers.submit(() -> {
                    for (int j = 0; j < 10_000; j++) {
                        assertFalse(loop.turn.tryTake(Thread.currentThread()), "a caller got the turn after close");
                    }
                }));
            }
            for (Future<?> caller : late) {
                caller.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void closeGivesUpOnAPassThatOutlastsItsWaitAndNamesTheCaller() throws Exception {
        try (Loop loop = new Loop(); Holding holding = hold(loop.turn)) {
            loop.close();
            assertSame(holding.thread, loop.turn.awaitLastPass(TimeUnit.MILLISECONDS.toNanos(50)),
                "what awaitLastPass returned when the pass outlasted it");
        }
    }

    /** A handler inside a caller's pass may close the loop: it cannot wait for its own pass. */
    @Test
    void closeFromInsideACallersPassReturnsAtOnce() throws Exception {
        AtomicReference<Thread> returned = new AtomicReference<>(Thread.currentThread());
        AtomicLong took = new AtomicLong();
        try (Loop loop = new Loop()) {
            callers.submit(() -> {
                Thread me = Thread.currentThread();
                takeWithin(loop.turn, me);
                try {
                    loop.close();
                    long start = System.nanoTime();
                    returned.set(loop.turn.awaitLastPass(LIMIT.toNanos()));
                    took.set(System.nanoTime() - start);
                } finally {
                    loop.turn.release();
                }
                return null;
            }).get(LIMIT.toSeconds() * 2, TimeUnit.SECONDS);
        }
        assertNull(returned.get(), "awaitLastPass on the thread holding the turn");
        assertTrue(took.get() < LIMIT.toNanos() / 2, "awaitLastPass on the thread holding the turn took "
            + TimeUnit.NANOSECONDS.toMillis(took.get()) + " ms: it waited for its own pass");
    }

    private static boolean blockedOnTurn(ReceivingTurn turn) {
        return Thread.getAllStackTraces().keySet().stream()
            .anyMatch(t -> t.getName().equals("polylink-test-caller") && LockSupport.getBlocker(t) == turn);
    }

    /** Fails unless a call from this thread fails, and at once. */
    private static void assertCallFails(ReceivingTurn turn, String when) {
        long start = System.nanoTime();
        assertFalse(turn.tryTake(Thread.currentThread()), "a call got the turn " + when);
        long took = System.nanoTime() - start;
        assertTrue(took < TimeUnit.SECONDS.toNanos(1), "a call " + when + " took " + took + " ns: it must fail at once");
    }

    /** Tries for the turn without pause until this thread holds it, for at most {@link #LIMIT}. */
    private static void takeWithin(ReceivingTurn turn, Thread me) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!turn.tryTake(me)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(me.getName() + " did not get the turn within " + LIMIT);
            }
        }
    }

    /** @return once it holds the turn, a caller that holds it until let go */
    private Holding hold(ReceivingTurn turn) throws Exception {
        AtomicReference<Thread> holder = new AtomicReference<>();
        AtomicBoolean handingBack = new AtomicBoolean();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<?> pass = callers.submit(() -> {
            Thread me = Thread.currentThread();
            takeWithin(turn, me);
            try {
                holder.set(me);
                held.countDown();
                assertTrue(release.await(LIMIT.toSeconds(), TimeUnit.SECONDS), "the test never let the caller go");
            } finally {
                handingBack.set(true);
                turn.release();
            }
            return null;
        });
        if (!held.await(LIMIT.toSeconds(), TimeUnit.SECONDS)) {
            release.countDown();
            pass.get(LIMIT.toSeconds(), TimeUnit.SECONDS); // its failure, if it failed
            throw new AssertionError("the caller did not get the turn within " + LIMIT);
        }
        return new Holding(holder.get(), pass, release, handingBack);
    }

    /** A caller holding the turn in a pass, until let go; closing lets it go and awaits the pass's end. */
    private static final class Holding implements AutoCloseable {
        final Thread thread;
        /** Set as the caller hands the turn back. */
        final AtomicBoolean handingBack;
        private final Future<?> pass;
        private final CountDownLatch release;

        Holding(Thread thread, Future<?> pass, CountDownLatch release, AtomicBoolean handingBack) {
            this.thread = thread;
            this.pass = pass;
            this.release = release;
            this.handingBack = handingBack;
        }

        void letGo() {
            release.countDown();
        }

        @Override
        public void close() throws Exception {
            letGo();
            pass.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    /** Passes through the turn: counts the ones that overlapped another, which none may. */
    private static final class Passes {
        final AtomicInteger overlaps = new AtomicInteger();
        final AtomicLong all = new AtomicLong();
        private final AtomicInteger inside = new AtomicInteger();
        /** Counted without atomicity by whoever holds the turn: only the turn keeps it exact. */
        long plain;

        void pass() {
            if (inside.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            plain++;
            for (int i = 0; i < 64; i++) {
                Thread.onSpinWait(); // a pass takes a while: room for another thread to come in
            }
            all.incrementAndGet();
            inside.decrementAndGet();
        }
    }

    /**
     * A loop's thread doing with the turn what {@link IoLoop}'s does: a pass of its own per turn
     * while it holds the turn, standing back after a turn in which callers came, and an idle
     * strategy of short parks, holding the turn, while none came.
     */
    private static final class Loop implements AutoCloseable {
        final Thread thread = new Thread(this::run, "polylink-test-loop");
        final ReceivingTurn turn;
        final AtomicLong stoodBack = new AtomicLong();
        final AtomicLong ownTurns = new AtomicLong();
        /** When the loop last had a turn of its own, no caller having come, after standing back. */
        volatile long tookBackAt;
        private final Passes passes;
        private volatile boolean running = true;

        Loop() {
            this(new Passes());
        }

        Loop(Passes passes) {
            this(passes, ReceivingTurn.NAP_NANOS);
        }

        Loop(Passes passes, long napNanos) {
            this.passes = passes;
            this.turn = new ReceivingTurn(thread, napNanos);
            thread.start();
        }

        private void run() {
            boolean stoodBackLast = false;
            try {
                while (running) {
                    passes.pass();
                    if (turn.called()) {
                        turn.standBack(() -> false);
                        stoodBack.incrementAndGet();
                        stoodBackLast = true;
                    } else {
                        if (stoodBackLast) {
                            tookBackAt = System.nanoTime();
                            stoodBackLast = false;
                        }
                        ownTurns.incrementAndGet();
                        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50)); // idles holding the turn
                    }
                }
            } finally {
                turn.leave();
            }
        }

        /** Stops the loop's thread as {@link IoLoop#close} does, before it waits for the last pass. */
        @Override
        public void close() throws InterruptedException {
            running = false;
            turn.close();
            thread.join(LIMIT.toMillis());
            assertFalse(thread.isAlive(), "the loop's thread did not stop within " + LIMIT);
        }
    }
}
