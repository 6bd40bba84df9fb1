package io.polylink.method.shm.internal.poll;

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
 * <p>In a conversation (requests and replies, from any thread) a poller that parked sooner would
 * add a wake-up to every exchange whose turn takes over 20 us, and two such pollers would each
 * wait for the other's wake-up and find every gap long, for good. So where this context sent one
 * or two frames between two records, the gap counts as short, however long it was. Where
 * something else keeps the gaps long, the short spin makes way for a full one once in
 * {@link #PROBE_EVERY} gaps.
 *
 * <p>A poller that answers what it receives (an inline handler replying on its thread) and is
 * woken within one spin of parking stretches its spin, doubling it up to {@link #MAX_STRETCH_NANOS}:
 * its peer's turns take longer than the spin, and parking between them costs every exchange a
 * wake-up. On two cores that wake-up is what keeps the turns long: the datagram wakes the poller on
 * the sending thread's core, where it answers and spins while that thread waits for the core. A
 * park that lasts {@value #STRETCH_DECAY} spins halves the stretch again, so a context that stays
 * quiet, or whose records come far apart, spins as configured. A poller that only hands what it
 * receives to other threads never stretches: their turn may need its core.
 *
 * <p>Spin parks only once {@link #SPIN_QUIET_NANOS} passed without a record, and where the gaps
 * keep being long it yields between polls once
 * {@link #SHORT_SPIN_NANOS} passed without a record. On two cores a stream runs three threads:
 * its sender, the receiver's poller and the sender's poller, which only hears acknowledgements
 * and, spinning at full speed, takes the sender's core from it.
 *
 * <p>The measurements behind these rules: docs/performance-notes.md#shm-idle-backoff.
 */
public final class Backoff {

    static final long SHORT_SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    static final int LONG_GAPS = 16;
    static final int PROBE_EVERY = 32;
    /** At most this many frames sent between two records make them a conversation. */
    static final int CONVERSATION_SENDS = 2;
    /**
     * How long spin polls without a record before it parks: an idle context keeps no core, and a
     * run of records that stops for a moment keeps its spin.
     */
    static final long SPIN_QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** The longest an answering poller's spin stretches to. */
    static final long MAX_STRETCH_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** A park this many spins long halves the stretch. */
    static final int STRETCH_DECAY = 4;

    private final long spinNanos;
    private final long shortSpinNanos;
    private final boolean yieldsOnLongGaps;
    private final boolean stretches;
    /** The spin an answering poller stretched to; 0 while it spins as configured. */
    private long stretch;
    private int longGaps;
    private int sinceProbe;
    private long next;

    public Backoff(IdleStrategy strategy, int spinMicros) {
        this.spinNanos = switch (strategy) {
            case SPIN -> SPIN_QUIET_NANOS;
            case SPIN_THEN_PARK -> TimeUnit.MICROSECONDS.toNanos(spinMicros);
            case PARK -> 0;
        };
        this.shortSpinNanos = strategy == IdleStrategy.SPIN_THEN_PARK
            ? Math.min(spinNanos, SHORT_SPIN_NANOS) : spinNanos;
        this.next = spinNanos;
        this.yieldsOnLongGaps = strategy == IdleStrategy.SPIN;
        this.stretches = strategy == IdleStrategy.SPIN_THEN_PARK;
    }

    /**
     * Work came {@code gapNanos} after the work before it.
     *
     * @param sends frames this context sent meanwhile: one or two, and what came is likely an answer
     *     in a conversation, however long the gaps; a stream's sender sends dozens per
     *     acknowledgement
     */
    void workAfter(long gapNanos, int sends) {
        boolean conversing = sends > 0 && sends <= CONVERSATION_SENDS;
        longGaps = gapNanos < SHORT_SPIN_NANOS || conversing ? 0 : Math.min(longGaps + 1, LONG_GAPS);
        if (longGaps < LONG_GAPS) {
            next = spinNanos;
        } else if (++sinceProbe == PROBE_EVERY) {
            sinceProbe = 0;
            next = spinNanos;
        } else {
            next = shortSpinNanos;
        }
    }

    /** @return how long a spinning poller polls flat out after the last record, then yields between polls */
    long yieldNanos() {
        return yieldsOnLongGaps && longGaps == LONG_GAPS ? SHORT_SPIN_NANOS : Long.MAX_VALUE;
    }

    /**
     * The poller parked for {@code parkedNanos}, after a spin of {@link #spinNanos()}.
     *
     * @param answered whether its own thread sent frames while it handled the records before it
     *     parked
     */
    void parked(long parkedNanos, boolean answered) {
        long spun = spinNanos();
        if (stretches && answered && parkedNanos < spun && longGaps < LONG_GAPS) {
            stretch = Math.min(MAX_STRETCH_NANOS, 2 * spun);
        } else if (stretch > 0 && parkedNanos >= STRETCH_DECAY * spun) {
            stretch = stretch / 2 > spinNanos ? stretch / 2 : 0;
        }
    }

    /** @return how long to spin after the last record before parking */
    long spinNanos() {
        return longGaps < LONG_GAPS ? Math.max(next, stretch) : next;
    }
}
