package io.polylink.mpi.internal.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A listener runs exactly once, whether it is added before, after or while its operation
 * completes; a thread that parks for an operation is woken however the completion falls.
 */
@Timeout(60)
class ListenerTest {

    private static final class Plain extends Operation {
        void finish() {
            complete(0, 0, 0, null);
        }
    }

    @Test
    void aListenerAddedBeforeOrAfterCompletionRunsOnce() {
        Plain before = new Plain();
        AtomicInteger runs = new AtomicInteger();
        before.whenDone(runs::incrementAndGet);
        assertEquals(0, runs.get(), "ran before completion");
        before.finish();
        assertEquals(1, runs.get());
        Plain after = new Plain();
        after.finish();
        after.whenDone(runs::incrementAndGet);
        assertEquals(2, runs.get());
    }

    /** One thread completes while another adds the listener, 50,000 times: never none, never twice. */
    @Test
    void aListenerAddedWhileItsOperationCompletesRunsExactlyOnce() throws Exception {
        racing(1, ops -> {
            AtomicInteger runs = new AtomicInteger();
            ops[0].whenDone(runs::incrementAndGet);
            return () -> assertEquals(1, runs.get(), "runs of the listener");
        });
    }

    /**
     * One thread completes while another parks for the operation at once (no spins, no yields),
     * 50,000 times: the completion may claim the operation before, while or after the waiter
     * registers, and the waiter always returns. A lost wake-up hangs a round, and the class's
     * timeout fails the test.
     */
    @Test
    void aThreadThatParksWhileItsOperationCompletesIsWoken() throws Exception {
        Idle parkAtOnce = new Idle(0, 0);
        racing(1, ops -> {
            ops[0].await(parkAtOnce);
            return () -> assertTrue(ops[0].isDone(), "the operation waited for");
        });
    }

    /** The same for a wait for any of two operations, the first of which completes. */
    @Test
    void aThreadThatParksForAnyOfTwoOperationsIsWokenByTheOneThatCompletes() throws Exception {
        Idle parkAtOnce = new Idle(0, 0);
        racing(2, ops -> {
            int first = Waits.any(ops, parkAtOnce);
            return () -> assertEquals(0, first, "the operation that completed");
        });
    }

    /** What this thread does in a round while the other completes; returns the check made after both are done. */
    private interface Side {
        Runnable on(Plain[] ops);
    }

    /**
     * 50,000 rounds of: {@code width} fresh operations, the first completed by another thread
     * while this one does {@code side}; then {@code side}'s check.
     */
    private static void racing(int width, Side side) throws Exception {
        int rounds = 50_000;
        Plain[][] ops = new Plain[1][];
        CyclicBarrier start = new CyclicBarrier(2);
        CyclicBarrier end = new CyclicBarrier(2);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread completer = new Thread(() -> {
            try {
                for (int i = 0; i < rounds; i++) {
                    start.await(10, TimeUnit.SECONDS);
                    ops[0][0].finish();
                    end.await(10, TimeUnit.SECONDS);
                }
            } catch (Throwable t) {
                failed.set(t);
            }
        }, "completer");
        completer.start();
        try {
            for (int i = 0; i < rounds; i++) {
                Plain[] set = new Plain[width];
                for (int k = 0; k < width; k++) {
                    set[k] = new Plain();
                }
                ops[0] = set;
                start.await(10, TimeUnit.SECONDS);
                Runnable check = side.on(set);
                end.await(10, TimeUnit.SECONDS);
                try {
                    check.run();
                } catch (AssertionError e) {
                    throw new AssertionError("round " + i + ": " + e.getMessage(), e);
                }
            }
        } finally {
            completer.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertEquals(null, failed.get());
    }
}
