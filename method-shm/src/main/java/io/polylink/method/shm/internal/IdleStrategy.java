package io.polylink.method.shm.internal;

import java.util.Locale;

/**
 * What the inbox poller does when its ring is empty. A parked poller is woken by the first sender
 * that finds its "parked" flag set (one datagram, tens of microseconds); a spinning one sees a
 * record within a few hundred nanoseconds, but burns a core.
 */
enum IdleStrategy {
    /**
     * Poll without ever parking: lowest latency, one core busy for good. While records keep coming
     * far apart it yields between polls (see {@link Backoff}).
     */
    SPIN,
    /**
     * Poll for {@code spinMicros} after the last record, then park: fast under traffic, quiet when
     * idle. While records keep coming far apart it parks sooner (see {@link Backoff}).
     */
    SPIN_THEN_PARK,
    /** Park as soon as the ring is empty: least CPU, one wake-up per burst. */
    PARK;

    static IdleStrategy parse(String text) {
        try {
            return valueOf(text.strip().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("idle strategy '" + text
                + "' is not one of spin, spin-then-park, park", e);
        }
    }
}
