package io.polylink.method.crypto.internal;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/** Bounded waits on conditions, failing with a message that says what did not happen. */
final class Await {

    private Await() {}

    static void until(BooleanSupplier condition, Duration limit, Supplier<String> what) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + limit + ": " + what.get());
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    /** @return names of live threads starting with {@code prefix} */
    static Set<String> threads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(Thread::isAlive).map(Thread::getName).filter(n -> n.startsWith(prefix))
            .collect(Collectors.toSet());
    }

    static void noThreads(String prefix) {
        until(() -> threads(prefix).isEmpty(), Duration.ofSeconds(10),
            () -> "threads still running: " + threads(prefix));
    }
}
