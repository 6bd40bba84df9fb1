package io.polylink.method.shm.internal.poll;

import io.polylink.spi.InvalidSettingException;
import java.util.Locale;

/**
 * What the inbox poller does when its ring is empty. A parked poller is woken by the first sender
 * that finds its "parked" flag set (one datagram, tens of microseconds); a spinning one sees a
 * record within a few hundred nanoseconds, but burns a core.
 */
public enum IdleStrategy {
    /**
     * Poll, parking only after 100 ms without a record: lowest latency, one core busy while the
     * context has traffic. While records keep coming far apart it yields between polls (see
     * {@link Backoff}).
     */
    SPIN,
    /**
     * Poll for {@code spinMicros} after the last record, then park: fast under traffic, quiet when
     * idle. While records keep coming far apart it parks sooner (see {@link Backoff}).
     */
    SPIN_THEN_PARK,
    /** Park as soon as the ring is empty: least CPU, one wake-up per burst. */
    PARK;

    /**
     * @param text {@code spin}, {@code spin-then-park} or {@code park}, in any case
     * @throws InvalidSettingException naming {@code component} and {@code key} if it is none of them
     */
    public static IdleStrategy parse(String component, String key, String text) {
        String wanted = text.strip().toUpperCase(Locale.ROOT).replace('-', '_');
        for (IdleStrategy strategy : values()) {
            if (strategy.name().equals(wanted)) {
                return strategy;
            }
        }
        throw new InvalidSettingException(component, key, text, "one of spin, spin-then-park, park");
    }
}
