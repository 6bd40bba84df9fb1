package io.polylink.core.internal.observe;

import io.polylink.spi.ProblemLog;
import java.lang.System.Logger.Level;
import java.lang.System.Logger;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Logs a few lines per kind of problem per interval, so a peer that sends garbage in a loop cannot
 * flood the log, and says how many it held back: in the next line of that kind, or, if none comes,
 * in a line of its own once the interval is over.
 */
public final class RateLimitedLog implements ProblemLog {

    /** Runs a task after a delay: how a log says what it held back once a flood stops. */
    @FunctionalInterface
    public interface Scheduler {

        /** Never says what it held back unless another line of the kind comes. */
        Scheduler NONE = (task, delayMs) -> { };

        void later(Runnable task, long delayMs);
    }

    private static final int MAX_KINDS = 1024;

    private final Logger logger;
    private final long intervalNanos;
    private final Scheduler scheduler;
    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();

    /** A log that says what it held back only in the next line of the kind. */
    public RateLimitedLog(Logger logger, long intervalNanos) {
        this(logger, intervalNanos, Scheduler.NONE);
    }

    /** @param scheduler runs the line that says what was held back once an interval ends */
    public RateLimitedLog(Logger logger, long intervalNanos, Scheduler scheduler) {
        this.logger = logger;
        this.intervalNanos = intervalNanos;
        this.scheduler = scheduler;
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
        log(kind, perInterval, message, cause, 0, null);
    }

    /**
     * As {@link #warn(String, int, String, Throwable)} for a line that counts something lost, such
     * as RSRs: what is held back is summed, so the total is never hidden.
     *
     * @param amount how many were lost, as the line says
     * @param unit what they are, plural, such as {@code "RSRs"}
     */
    public void warn(String kind, int perInterval, String message, long amount, String unit) {
        log(kind, perInterval, message, null, amount, unit);
    }

    private void log(String kind, int perInterval, String message, Throwable cause, long amount, String unit) {
        if (perInterval < 1 || perInterval > 100) {
            throw new IllegalArgumentException("lines per interval " + perInterval + " outside 1..100");
        }
        if (windows.size() >= MAX_KINDS && !windows.containsKey(kind)) {
            windows.clear();
        }
        Window w = windows.computeIfAbsent(kind, k -> new Window());
        String line;
        long summarizeInNanos = -1;
        synchronized (w) {
            long now = System.nanoTime();
            if (w.used == 0 || now - w.start >= intervalNanos) {
                w.start = now;
                w.used = 0;
            }
            if (w.used == perInterval) {
                w.held++;
                w.heldAmount += amount;
                w.unit = unit;
                if (!w.summaryDue) {
                    w.summaryDue = true;
                    summarizeInNanos = w.start + intervalNanos - now;
                }
                line = null;
            } else {
                w.used++;
                line = w.held == 0 ? message : message + " (" + w.heldBack() + ")";
                w.forgetHeld();
            }
        }
        if (line != null) {
            logger.log(Level.WARNING, line, cause);
        } else if (summarizeInNanos >= 0) {
            scheduler.later(() -> summarize(kind, w), TimeUnit.NANOSECONDS.toMillis(summarizeInNanos) + 1);
        }
    }

    /** Once an interval with lines held back is over: says how many, unless a later line did. */
    private void summarize(String kind, Window w) {
        String line;
        synchronized (w) {
            w.summaryDue = false;
            if (w.held == 0) {
                return;
            }
            line = kind + ": " + w.heldBack();
            w.forgetHeld();
        }
        logger.log(Level.WARNING, line);
    }

    /** One kind's interval: lines logged in it, and what was held back since the last line. Guarded by itself. */
    private static final class Window {
        long start;
        int used;
        long held;
        long heldAmount;
        String unit;
        boolean summaryDue;

        String heldBack() {
            return held + " more like it held back" + (unit == null ? "" : ", " + heldAmount + " " + unit + " in them");
        }

        void forgetHeld() {
            held = 0;
            heldAmount = 0;
            unit = null;
        }
    }
}
