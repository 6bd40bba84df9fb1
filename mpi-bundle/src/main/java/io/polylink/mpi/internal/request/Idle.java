package io.polylink.mpi.internal.request;

/**
 * How a thread waits for an operation: spins a while (a reply over shared memory takes
 * microseconds), yields a while, then parks until the completing thread unparks it.
 *
 * @param spins busy checks before yielding
 * @param yields {@link Thread#yield()}s before parking
 */
public record Idle(int spins, int yields) {

    /**
     * The default: a moment of spinning, then yields for some tens of milliseconds. A rank's threads
     * and its methods' threads often outnumber the cores; a waiter that spins holds its core until
     * the scheduler takes it away, hundreds of microseconds later, while the thread that would
     * complete it waits for that core. A yielding waiter gives the core to whichever thread has work
     * and still sees its completion within microseconds, without a wake-up. See
     * docs/performance-notes.md#mpi-latency.
     */
    public static final Idle DEFAULT = new Idle(100, 100_000);

    public Idle {
        if (spins < 0 || yields < 0) {
            throw new IllegalArgumentException("spins and yields must not be negative: " + spins + ", " + yields);
        }
    }

    /**
     * Pauses once, busily.
     *
     * @param attempt how many times the caller paused before
     * @return {@code false} once the busy budget is spent: the caller parks instead
     */
    boolean pause(int attempt) {
        if (attempt < spins) {
            Thread.onSpinWait();
            return true;
        }
        if (attempt < spins + yields) {
            Thread.yield();
            return true;
        }
        return false;
    }
}
