package io.polylink.core.internal.observe;

import io.polylink.spi.ProblemLog;
import java.lang.System.Logger.Level;
import java.lang.System.Logger;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Logs a few lines per kind of problem per interval, and says how many it held back, so a peer
 * that sends garbage in a loop cannot flood the log.
 */
public final class RateLimitedLog implements ProblemLog {

    private static final int MAX_KINDS = 1024;

    private final Logger logger;
    private final long intervalNanos;
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();

    public RateLimitedLog(Logger logger, long intervalNanos) {
        this.logger = logger;
        this.intervalNanos = intervalNanos;
    }

    /**
     * @param kind what groups lines together, e.g. "unknown handler"
     * @param message the line, naming the thing that was wrong
     */
    @Override
    public void warn(String kind, String message, Throwable cause) {
        warn(kind, 1, message, cause);
    }

    /** @param perInterval lines of this kind logged per interval, for kinds where each line names another thing */
    @Override
    public void warn(String kind, int perInterval, String message, Throwable cause) {
        if (perInterval < 1 || perInterval > 100) {
            throw new IllegalArgumentException("lines per interval " + perInterval + " outside 1..100");
        }
        if (windows.size() >= MAX_KINDS && !windows.containsKey(kind)) {
            windows.clear();
        }
        Window w = windows.computeIfAbsent(kind, k -> new Window());
        String line;
        synchronized (w) {
            long now = System.nanoTime();
            if (w.used == 0 || now - w.start >= intervalNanos) {
                w.start = now;
                w.used = 0;
            }
            if (w.used == perInterval) {
                w.suppressed++;
                return;
            }
            w.used++;
            line = w.suppressed == 0 ? message : message + " (" + w.suppressed + " more like it held back)";
            w.suppressed = 0;
        }
        logger.log(Level.WARNING, line, cause);
    }

    private static final class Window {
        long start;
        int used;
        long suppressed;
    }
}
