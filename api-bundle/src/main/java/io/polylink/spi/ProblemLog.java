package io.polylink.spi;

import org.osgi.annotation.versioning.ProviderType;

/**
 * A log for problems that peers or the environment cause, and so may cause in floods: malformed
 * frames, refused connections, failed accepts. Each kind of problem gets a few lines per second;
 * what is held back is counted, and the next line of that kind says how many. A method gets one
 * from {@link MethodContext#problems()} instead of keeping a rate limiter of its own.
 *
 * <p>Lines go to the logger named {@code io.polylink.method.<name>} at level {@code WARNING}.
 * Thread-safe; never blocks on anything but the logger.
 */
@ProviderType
public interface ProblemLog {

    /**
     * Logs one line of a kind, at most one a second of that kind.
     *
     * @param kind what groups lines together, such as {@code "bad frame"}; a few dozen kinds at most
     * @param message the line, naming what was wrong and where, and what happens now
     * @param cause the exception behind it, or {@code null}
     */
    void warn(String kind, String message, Throwable cause);

    /**
     * Logs one line of a kind of which each line names another thing (another peer, say), so a
     * few a second are worth reading.
     *
     * @param kind what groups lines together
     * @param perSecond lines of this kind logged a second, 1 to 100
     * @param message the line
     * @param cause the exception behind it, or {@code null}
     */
    void warn(String kind, int perSecond, String message, Throwable cause);
}
