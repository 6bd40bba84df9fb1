package io.polylink.mpi.internal.request;

import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * How a thread waits for an operation: receives on its own thread and spins a while (a reply over
 * shared memory takes microseconds), receives and yields a while, then parks until the completing
 * thread unparks it.
 *
 * @param spins busy checks before yielding
 * @param yields {@link Thread#yield()}s before parking
 * @param receive receives on the calling thread ({@link io.polylink.Context#progress}), returning
 *     more than 0 if something came: a waiter whose answer it brings needs no other thread
 * @param handBackReceiving hands receiving back to the methods' threads
 *     ({@link io.polylink.Context#handBackReceiving}): what the thread runs as it goes back to the
 *     application with a request still active
 * @param crowded whether the host's ranks outnumber its cores: then the waiter yields from the
 *     first look, as its spins would hold the core a peer needs (docs/performance-notes.md#mpi-small-call-garbage)
 */
public record Idle(int spins, int yields, IntSupplier receive, Runnable handBackReceiving, BooleanSupplier crowded) {

    private static final IntSupplier NOTHING = () -> 0;
    private static final Runnable NOBODY = () -> { };
    private static final BooleanSupplier NEVER = () -> false;

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

    /** A waiter that only waits: other threads receive. */
    public Idle(int spins, int yields) {
        this(spins, yields, NOTHING, NOBODY, NEVER);
    }

    /** A waiter that receives with {@code receive} and spins whatever the host. */
    public Idle(int spins, int yields, IntSupplier receive) {
        this(spins, yields, receive, NOBODY, NEVER);
    }

    /**
     * @return this way of waiting, receiving with {@code receiver} before each pause, and handing
     *     receiving back with {@code handBack}
     */
    public Idle receivingWith(IntSupplier receiver, Runnable handBack) {
        return new Idle(spins, yields, receiver, handBack, crowded);
    }

    /** @return this way of waiting, yielding from the first look while {@code crowded} says so */
    public Idle yieldingWhen(BooleanSupplier crowded) {
        return new Idle(spins, yields, receive, handBackReceiving, crowded);
    }

    /**
     * The thread goes back to the application while a request it started is still active: the
     * methods' own threads receive from now on, so the request progresses while the application
     * works, rather than once they notice that the thread stopped receiving.
     */
    public void handBack() {
        handBackReceiving.run();
    }

    /** Receives once on the calling thread: what a test or a non-blocking probe does before it looks. */
    public void receiveOnce() {
        receive.getAsInt();
    }

    /**
     * Receives once, then pauses once, busily, unless something came.
     *
     * @param attempt how many times the caller paused before
     * @return {@code false} once the busy budget is spent, receiving handed back: the caller parks
     *     instead
     */
    public boolean pause(int attempt) {
        if (receive.getAsInt() > 0) {
            return true;
        }
        if (attempt < spins && !crowded.getAsBoolean()) {
            Thread.onSpinWait();
            return true;
        }
        if (attempt < spins + yields) {
            Thread.yield();
            return true;
        }
        handBack(); // the caller parks: what completes it must come through the methods' threads
        return false;
    }
}
