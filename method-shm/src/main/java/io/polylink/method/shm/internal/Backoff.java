package io.polylink.method.shm.internal;

import java.util.concurrent.TimeUnit;

/**
 * How long the poller spins after its last record before it parks, by its {@link IdleStrategy} and
 * the gaps between records so far. Poller thread only.
 *
 * <p>Spin-then-park spins for {@code spinMicros}. Where the last {@link #LONG_GAPS} gaps were each
 * {@link #SHORT_SPIN_NANOS} or longer, it parks after that instead: the receiver of a stream,
 * which hears one acknowledgement every hundred microseconds or more, must not spin away the core
 * its sender needs, and a spin of 20 us still takes a follow-up that comes at once. A ping-pong's
 * replies come well within that, so the odd long pause among them changes nothing.
 *
 * <p>Two pollers in a conversation that both parked sooner would each wait for the other's wake-up
 * and find every gap long, for good. So a poller that answered what it delivered (an inline
 * handler replied) keeps its full spin, whatever the gaps. Where the answers leave from other
 * threads, the short spin makes way for a full one once in {@link #PROBE_EVERY} gaps: when the
 * other side answers within it, the gaps are short again on both sides.
 */
final class Backoff {

    static final long SHORT_SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    static final int LONG_GAPS = 16;
    static final int PROBE_EVERY = 32;

    private final long spinNanos;
    private final long shortSpinNanos;
    private int longGaps;
    private int sinceProbe;
    private long next;

    Backoff(IdleStrategy strategy, int spinMicros) {
        this.spinNanos = switch (strategy) {
            case SPIN -> Long.MAX_VALUE;
            case SPIN_THEN_PARK -> TimeUnit.MICROSECONDS.toNanos(spinMicros);
            case PARK -> 0;
        };
        this.shortSpinNanos = strategy == IdleStrategy.SPIN_THEN_PARK ? Math.min(spinNanos, SHORT_SPIN_NANOS) : spinNanos;
        this.next = spinNanos;
    }

    /**
     * Work came {@code gapNanos} after the work before it.
     *
     * @param answered whether the poller sent a frame meanwhile, a handler answering what it
     *     delivered: an answer to that is likely coming, however long the gaps were
     */
    void workAfter(long gapNanos, boolean answered) {
        longGaps = gapNanos < SHORT_SPIN_NANOS || answered ? 0 : Math.min(longGaps + 1, LONG_GAPS);
        if (longGaps < LONG_GAPS) {
            next = spinNanos;
        } else if (++sinceProbe == PROBE_EVERY) {
            sinceProbe = 0;
            next = spinNanos;
        } else {
            next = shortSpinNanos;
        }
    }

    /** @return how long to spin after the last record before parking */
    long spinNanos() {
        return next;
    }
}
