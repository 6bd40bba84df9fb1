package io.polylink.testkit;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/** Bounded waits on conditions, failing with a message that says what did not happen. */
public final class Await {

    private Await() {}

    /**
     * Polls {@code condition} every millisecond until it holds.
     *
     * @throws AssertionError with {@code what}'s text if it does not hold within {@code limit}
     */
    public static void until(BooleanSupplier condition, Duration limit, Supplier<String> what) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + limit + ": " + what.get());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /** @return the names of live threads whose name starts with {@code prefix} */
    public static Set<String> threads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(Thread::isAlive).map(Thread::getName).filter(n -> n.startsWith(prefix))
            .collect(Collectors.toSet());
    }

    /** Waits up to 10 s for every thread named {@code prefix…} to end. */
    public static void noThreads(String prefix) {
        until(() -> threads(prefix).isEmpty(), Duration.ofSeconds(10),
            () -> "threads still running: " + threads(prefix));
    }
}
