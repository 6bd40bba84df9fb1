package io.polylink.core.internal.observe;

import java.lang.System.Logger;
import java.util.concurrent.TimeUnit;

/**
 * What goes wrong in one context, told once: an error peers, handlers or the environment caused is
 * counted in the context's statistics and logged to {@code io.polylink.core}, a few lines a second
 * per kind, so a peer that sends garbage in a loop cannot flood the log; what is held back is
 * counted, and said in the next line of the kind or once its second is over. Thread-safe.
 */
public final class Problems {

    private static final Logger LOG = System.getLogger("io.polylink.core");

    /**
     * Lines a second saying RSRs were lost, each naming its own flow: an operator must see them,
     * but a peer that makes flows and vanishes must not flood the log with them.
     */
    private static final int LOST_PER_SECOND = 10;

    private final Counters counters;
    private final RateLimitedLog log;

    /**
     * @param counters the context's counters, whose error count each error raises
     * @param scheduler runs the lines that say what was held back once a flood stops
     */
    public Problems(Counters counters, RateLimitedLog.Scheduler scheduler) {
        this.counters = counters;
        this.log = new RateLimitedLog(LOG, TimeUnit.SECONDS.toNanos(1), scheduler);
    }

    /**
     * Counts an error and logs it, one line a second of its kind.
     *
     * @param kind what groups lines together, such as {@code "bad frame"}
     * @param message the line, naming what was wrong and what happens now
     */
    public void error(String kind, String message) {
        error(kind, message, null);
    }

    /** As {@link #error(String, String)}, with the exception behind it. */
    public void error(String kind, String message, Throwable cause) {
        counters.error();
        log.warn(kind, message, cause);
    }

    /**
     * As {@link #error(String, String, Throwable)} for a kind of which each line names another
     * thing (another connection, say), so a few a second are worth reading.
     *
     * @param perSecond lines of this kind logged a second, 1 to 100
     */
    public void error(String kind, int perSecond, String message, Throwable cause) {
        counters.error();
        log.warn(kind, perSecond, message, cause);
    }

    /**
     * Counts an error and logs it, {@value #LOST_PER_SECOND} lines a second: RSRs were lost. The
     * RSRs of lines held back are added up, so the total lost is always told.
     *
     * @param rsrs how many RSRs were lost
     */
    public void lost(String message, long rsrs) {
        counters.error();
        log.warn("RSRs lost", LOST_PER_SECOND, message, rsrs, "RSRs");
    }

    /** Logs, one line a second of its kind, what the context recovers from by itself; no error. */
    public void warn(String kind, String message) {
        log.warn(kind, message, null);
    }

    /**
     * As {@link #warn(String, String)} for a kind of which each line names another thing (another
     * peer, say), so a few a second are worth reading.
     *
     * @param perSecond lines of this kind logged a second, 1 to 100
     */
    public void warn(String kind, int perSecond, String message) {
        log.warn(kind, perSecond, message, null);
    }
}
