package io.polylink.core.internal;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Logs at most one line per kind of problem per interval, and says how many it held back, so a
 * peer that sends garbage in a loop cannot flood the log.
 */
final class RateLimitedLog {

    private static final int MAX_KINDS = 1024;

    private final Logger logger;
    private final long intervalNanos;
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();

    RateLimitedLog(Logger logger, long intervalNanos) {
        this.logger = logger;
        this.intervalNanos = intervalNanos;
    }

    /**
     * @param kind what groups lines together, e.g. "unknown handler"
     * @param message the line, naming the thing that was wrong
     */
    void warn(String kind, String message, Throwable cause) {
        if (windows.size() >= MAX_KINDS && !windows.containsKey(kind)) {
            windows.clear();
        }
        Window w = windows.computeIfAbsent(kind, k -> new Window());
        long now = System.nanoTime();
        long last = w.lastLogged.get();
        if (now - last >= intervalNanos && w.lastLogged.compareAndSet(last, now)) {
            long held = w.suppressed.getAndSet(0);
            String line = held == 0 ? message : message + " (" + held + " more like it held back)";
            logger.log(Level.WARNING, line, cause);
        } else {
            w.suppressed.incrementAndGet();
        }
    }

    private static final class Window {
        final AtomicLong lastLogged = new AtomicLong(System.nanoTime() - Long.MAX_VALUE / 2);
        final AtomicLong suppressed = new AtomicLong();
    }
}
