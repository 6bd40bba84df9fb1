package io.polylink.mpi.internal.request;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Work an operation owes goes to the thread that waits for it when one waits without parking,
 * and is done exactly once, by whoever claims it first.
 */
@Timeout(60)
class AssistTest {

    /** Spins and yields far longer than any test here waits. */
    private static final Idle BUSY = new Idle(1_000, 1_000_000_000);
    private static final Idle PARKS_AT_ONCE = new Idle(0, 0);
    private static final long LIMIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    /** Owes one piece of work once offered; doing it completes the operation and names the thread. */
    private static final class Owing extends Operation {

        final AtomicInteger owed = new AtomicInteger();
        final AtomicInteger done = new AtomicInteger();
        final AtomicReference<Thread> doneBy = new AtomicReference<>();

        /** @return whether a waiting thread will do it */
        boolean owe() {
            owed.set(1);
            return offer();
        }

        @Override
        public boolean mayOwe() {
            return true;
        }

        @Override
        public boolean assist() {
            if (!owed.compareAndSet(1, 0)) {
                return false;
            }
            done.incrementAndGet();
            doneBy.set(Thread.currentThread());
            complete(0, 0, 0, null);
            return true;
        }
    }

    @Test
    void workOfferedWhileAThreadWaitsBusilyIsDoneOnThatThread() throws Exception {
        Owing op = new Owing();
        Waiter waiter = Waiter.start(() -> op.await(BUSY));
        awaitTrue(op::attended, "the waiter attends the operation");
        assertTrue(op.owe(), "a busy waiter takes the work");
        waiter.join();
        assertEquals(1, op.done.get());
        assertEquals(waiter.thread, op.doneBy.get());
        assertFalse(op.attended(), "no longer attended once the wait returned");
    }

    @Test
    void workOfferedWithNoWaiterIsRefusedAndDoneByTheCallerOnce() {
        Owing op = new Owing();
        assertFalse(op.owe(), "nobody waits: the caller must have it done");
        assertTrue(op.assist());
        assertFalse(op.assist(), "done once");
        op.await(BUSY);
        assertEquals(1, op.done.get());
    }

    @Test
    void aWaiterThatParkedIsNotOfferedWorkAndWakesWhenAnotherThreadDoesIt() throws Exception {
        Owing op = new Owing();
        Waiter waiter = Waiter.start(() -> op.await(PARKS_AT_ONCE));
        awaitTrue(() -> waiter.thread.getState() == Thread.State.WAITING, "the waiter parks");
        assertFalse(op.owe(), "a parked waiter does not take work");
        assertTrue(op.assist());
        waiter.join();
        assertEquals(Thread.currentThread(), op.doneBy.get());
    }

    @Test
    void workOfferedByAPartGoesToTheThreadWaitingForTheWhole() throws Exception {
        Owing part = new Owing();
        Whole whole = new Whole(part);
        part.partOf(whole);
        Waiter waiter = Waiter.start(() -> whole.await(BUSY));
        awaitTrue(whole::attended, "the waiter attends the whole");
        assertTrue(part.owe(), "the whole's waiter takes its part's work");
        waiter.join();
        assertEquals(waiter.thread, part.doneBy.get());
    }

    @Test
    void waitingForAllDoesTheWorkOfWhicheverOperationOwesSomeInAnyOrder() throws Exception {
        Owing first = new Owing();
        Owing second = new Owing();
        Operation[] ops = {first, null, second};
        Waiter waiter = Waiter.start(() -> Waits.all(ops, BUSY));
        awaitTrue(() -> first.attended() && second.attended(), "waiting for all attends each");
        assertTrue(second.owe());
        awaitTrue(second::isDone, "the second is done while the first still waits");
        assertFalse(first.isDone());
        assertTrue(first.owe());
        waiter.join();
        assertEquals(waiter.thread, second.doneBy.get());
        assertEquals(waiter.thread, first.doneBy.get());
        assertFalse(first.attended() || second.attended(), "no longer attended once the wait returned");
    }

    @Test
    void waitingForAllDoesWorkOfferedJustBeforeItParksEvenIfAnEarlierOperationNeedsIt() throws Exception {
        Owing second = new Owing();
        Owing needed = second;
        // The offer comes during the wait's last pause, while it still attends: nobody else takes it.
        Idle offersThenParks = new Idle(0, 0, () -> {
            if (needed.owed.get() == 0 && !needed.isDone()) {
                assertTrue(needed.owe());
            }
            return 0;
        });
        Completing firstDone = new Completing();
        second.whenDone(firstDone::finish);
        Waiter waiter = Waiter.start(() -> Waits.all(new Operation[] {firstDone, second}, offersThenParks));
        waiter.join();
        assertEquals(waiter.thread, second.doneBy.get());
        assertTrue(firstDone.isDone());
    }

    /** Completes when told, as a receive does when its message comes. */
    private static final class Completing extends Operation {
        void finish() {
            complete(0, 0, 0, null);
        }
    }

    @Test
    void waitingForAnyDoesTheWorkOfferedToAnyOfItsOperations() throws Exception {
        Owing first = new Owing();
        Owing second = new Owing();
        Operation[] ops = {first, second};
        AtomicInteger index = new AtomicInteger(-1);
        Waiter waiter = Waiter.start(() -> index.set(Waits.any(ops, BUSY)));
        awaitTrue(() -> first.attended() && second.attended(), "waiting for any attends each");
        assertTrue(second.owe());
        waiter.join();
        assertEquals(1, index.get());
        assertEquals(waiter.thread, second.doneBy.get());
        assertFalse(first.attended() || second.attended(), "no longer attended once the wait returned");
        assertFalse(first.owe(), "nobody waits for the first any more");
    }

    @Test
    void waitingForSomeThatParksAttendsNoneAndWakesWhenOneIsDoneElsewhere() throws Exception {
        Owing first = new Owing();
        Owing second = new Owing();
        AtomicReference<int[]> done = new AtomicReference<>();
        Waiter waiter = Waiter.start(() -> done.set(Waits.some(new Operation[] {first, second}, PARKS_AT_ONCE)));
        awaitTrue(() -> waiter.thread.getState() == Thread.State.WAITING, "the waiter parks");
        assertFalse(first.owe(), "a parked waiter takes no work");
        assertTrue(first.assist());
        waiter.join();
        assertArrayEquals(new int[] {0}, done.get());
    }

    @Test
    void waitingForAllThatParksAttendsNoneSoWorkOfferedThenIsRefused() throws Exception {
        Owing first = new Owing();
        Owing second = new Owing();
        Waiter waiter = Waiter.start(() -> Waits.all(new Operation[] {first, second}, PARKS_AT_ONCE));
        awaitTrue(() -> waiter.thread.getState() == Thread.State.WAITING, "the waiter parks");
        assertFalse(second.owe(), "parked on the first, the waiter attends neither");
        assertTrue(second.assist());
        assertFalse(first.owe());
        assertTrue(first.assist());
        waiter.join();
    }

    @Test
    void waitingForAllCopesWithAnOperationThatCompletesWhileItIsLookedAt() {
        Operation racing = new Operation() {
            private int looks;

            @Override
            public boolean mayOwe() {
                if (++looks == 2) {
                    complete(0, 0, 0, null); // as another thread would, between two looks
                }
                return true;
            }
        };
        Owing owing = new Owing();
        owing.owe();
        Waits.all(new Operation[] {racing, owing}, BUSY);
        assertTrue(racing.isDone() && owing.isDone());
    }

    /** An operation made of one part: complete once the part is, keeping what the part offers. */
    private static final class Whole extends Operation {

        private final Owing part;
        private volatile Operation offered;

        Whole(Owing part) {
            this.part = part;
            part.whenDone(() -> complete(0, 0, 0, null));
        }

        @Override
        protected void owed(Operation p) {
            offered = p;
        }

        @Override
        public boolean mayOwe() {
            return true;
        }

        @Override
        public boolean assist() {
            Operation p = offered;
            return p != null && p == part && p.assist();
        }
    }

    /** A thread that waits, joined by the test, which fails with whatever the thread threw. */
    private static final class Waiter {

        final Thread thread;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        private Waiter(Runnable wait) {
            thread = new Thread(() -> {
                try {
                    wait.run();
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "assist-test-waiter");
            thread.setDaemon(true);
        }

        static Waiter start(Runnable wait) {
            Waiter w = new Waiter(wait);
            w.thread.start();
            return w;
        }

        void join() throws InterruptedException {
            thread.join(TimeUnit.NANOSECONDS.toMillis(LIMIT_NANOS));
            assertFalse(thread.isAlive(), "the waiter still waits after " + TimeUnit.NANOSECONDS.toSeconds(LIMIT_NANOS)
                + " s");
            if (failure.get() != null) {
                throw new AssertionError("the waiter failed", failure.get());
            }
        }
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + LIMIT_NANOS;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + Duration.ofNanos(LIMIT_NANOS).toSeconds() + " s: " + what);
            }
            Thread.onSpinWait();
        }
    }
}
