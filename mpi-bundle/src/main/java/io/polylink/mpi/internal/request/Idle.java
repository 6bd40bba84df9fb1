package io.polylink.mpi.internal.request;

/**
 * How a thread waits for an operation: spins a while (a reply over shared memory takes
 * microseconds), yields a while, then parks until the completing thread unparks it.
 *
 * @param spins busy checks before yielding
 * @param yields {@link Thread#yield()}s before parking
 */
public record Idle(int spins, int yields) {

    /** The default: some microseconds of spinning, then a few yields. */
    public static final Idle DEFAULT = new Idle(2_000, 20);

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
