package io.polylink.core.internal.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.core.internal.observe.Counters;
import io.polylink.core.internal.observe.Problems;
import io.polylink.core.internal.observe.RateLimitedLog;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import io.polylink.testkit.UncaughtThrowables;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The context's own threads run on whatever a task throws: the task's failure is reported and
 * counted, and the same thread runs the next task.
 */
class GuardedThreadsTest {

    /** What a task with a bug throws. */
    private static final class InjectedError extends Error {
        private static final long serialVersionUID = 1L;

        InjectedError() {
            super("injected into a task");
        }
    }

    private final UncaughtThrowables uncaught = new UncaughtThrowables();
    private final LogCapture log = new LogCapture("io.polylink.core");
    private final Counters counters = new Counters();
    private final Problems problems = new Problems(counters, RateLimitedLog.Scheduler.NONE);

    @AfterEach
    void close() {
        try {
            assertEquals(List.of(), uncaught.deaths(), "threads died");
        } finally {
            uncaught.close();
            log.close();
        }
    }

    @Test
    void theControlSenderGoesOnAfterATaskThrows() throws Exception {
        try (ControlSender control = new ControlSender("polylink-control-test", problems)) {
            sameThreadAfterAnError(control::schedule);
        }
        Await.noThreads("polylink-control-test");
    }

    @Test
    void theRetryTimerGoesOnAfterATaskThrows() throws Exception {
        try (RetryTimer timer = new RetryTimer("polylink-retry-test", problems)) {
            sameThreadAfterAnError(timer::execute);
        }
        Await.noThreads("polylink-retry-test");
    }

    /** A timer's future would keep the Error to itself, where nobody looks: it is reported instead. */
    @Test
    void theRetryTimerReportsWhatADelayedTaskThrows() throws Exception {
        try (RetryTimer timer = new RetryTimer("polylink-retry-test", problems)) {
            sameThreadAfterAnError(task -> timer.later(task, 1));
        }
        Await.noThreads("polylink-retry-test");
    }

    @Test
    void theHandlerPoolGoesOnAfterATaskThrows() throws Exception {
        try (HandlerPool pool = new HandlerPool(1, "test", problems)) {
            sameThreadAfterAnError(pool::execute);
        }
        Await.noThreads("polylink-handler-");
    }

    /** Runs a task that throws, then one that does not, through {@code executor}: one thread runs both. */
    private void sameThreadAfterAnError(Consumer<Runnable> executor) throws Exception {
        long errorsBefore = counters.snapshot().errors();
        CompletableFuture<Thread> failed = new CompletableFuture<>();
        CompletableFuture<Thread> next = new CompletableFuture<>();

        executor.accept(() -> {
            failed.complete(Thread.currentThread());
            throw new InjectedError();
        });
        executor.accept(() -> next.complete(Thread.currentThread()));

        Thread thread = failed.get(10, TimeUnit.SECONDS);
        assertSame(thread, next.get(10, TimeUnit.SECONDS), "the thread that met the Error ran the next task");
        assertTrue(thread.isAlive());
        Await.until(() -> log.lines().contains(thread.getName() + ": a task threw " + InjectedError.class.getName()
            + ": injected into a task; the thread goes on with the next"), java.time.Duration.ofSeconds(5),
            () -> "not reported: " + log.lines());
        assertEquals(errorsBefore + 1, counters.snapshot().errors());
    }
}
