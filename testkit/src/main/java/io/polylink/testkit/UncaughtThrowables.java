package io.polylink.testkit;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Collects what reaches the JVM's default uncaught-exception handler while open, which is where a
 * thread's last Throwable goes when it dies of it: a test that injects failures asserts this stays
 * empty. Closing puts the previous handler back. One at a time per JVM.
 */
public final class UncaughtThrowables implements AutoCloseable {

    private final Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
    private final List<String> deaths = new CopyOnWriteArrayList<>();

    public UncaughtThrowables() {
        Thread.setDefaultUncaughtExceptionHandler((thread, t) -> deaths.add(thread.getName() + " died of " + t));
    }

    /** @return one line per thread that died of an uncaught Throwable since this opened, oldest first */
    public List<String> deaths() {
        return List.copyOf(deaths);
    }

    @Override
    public void close() {
        Thread.setDefaultUncaughtExceptionHandler(previous);
    }
}
