package io.polylink.method.tcp.internal.loop;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The receiving turn of one {@link IoLoop}: which thread receives for it now, and how the turn
 * passes between the loop's own thread and callers receiving in its place.
 *
 * <p>One thread holds the turn at a time, and everything the loop calls "loop thread only" belongs
 * to whoever holds it; taking the turn and handing it back orders everything the holders touch.
 * The loop's thread holds it from its start, through its turns and also while blocked in its
 * selector, so no caller ever waits for the selector's lock. A caller {@linkplain #tryTake takes}
 * it for one pass, and only if nobody holds it: it never blocks, and a call that finds the turn
 * taken fails at once. Every call, taken or not, tells the loop that callers came.
 *
 * <p>While callers keep coming, the loop {@linkplain #standBack stands back} after each of its
 * turns: it lets go of the turn and naps for at most its nap ({@link #NAP_NANOS} unless the
 * method's {@code standBackMicros} says otherwise), holding nothing, then takes the turn back for
 * a turn of its own (tasks, timers, writes the sockets could not take,
 * channels no caller may read). If a caller holds it then, the loop waits: callers leave the turn
 * be meanwhile, and the one holding it unparks the loop as it hands it back. A nap ends early when
 * the loop has work ({@link #endNap}). The first turn after a whole nap without a call finds no
 * caller came, and the loop goes back to its idle strategy: bytes that come after the last call
 * wait at most one nap and one turn, and about {@link #HAND_BACK_GRACE_NANOS} once the callers
 * {@linkplain #handBack hand the turn back}.
 *
 * <p>Closing: once {@linkplain #close closed} the loop no longer waits for the turn (a handler on
 * a caller's thread may be what closes the loop, and waits for it), and once the loop's thread has
 * ended, {@link #awaitLastPass} waits for a caller's pass still under way and keeps the turn for
 * the loop for good: no caller takes it again.
 */
final class ReceivingTurn {

    /**
     * How long the loop naps between its turns while callers receive in its place: how soon it
     * takes over once they stop, and how often it takes a core from them meanwhile (see
     * docs/performance-notes.md#tcp-napping-while-callers-receive).
     */
    static final long NAP_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    /**
     * How long a loop woken by a {@linkplain #handBack hand-back} waits for callers to come back
     * before it takes over: a thread that starts a request and waits for it at once comes back
     * within microseconds, and keeps receiving itself.
     */
    static final long HAND_BACK_GRACE_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /** How often {@link #awaitLastPass} looks whether the last pass has ended. */
    private static final long LAST_PASS_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** How long this turn's loop naps between its turns while callers receive. */
    private final long napNanos;

    private final Thread loop;
    /**
     * The thread that receives now: the loop's (except while it stands back) or one caller's;
     * {@code null} while nobody does.
     */
    private final AtomicReference<Thread> holder;
    /**
     * A caller came since the loop last stood back. Callers write it before they try for the turn,
     * and the loop reads it after setting the flag that says it blocks in the selector (which
     * callers read after writing this): so either the loop sees the call and does not block, or
     * the caller sees the loop blocked and wakes it.
     */
    private volatile boolean called;
    /**
     * The loop waits for the turn: callers leave it be. The loop writes it before it tries for the
     * turn, and a caller reads it after handing the turn back: so either the loop takes the turn,
     * or the caller sees it waiting and unparks it.
     */
    private volatile boolean loopWaiting;
    /**
     * The loop naps, holding no turn. Written before the loop looks for work it would nap through,
     * and read by {@link #endNap} after the work was added: so either the loop sees the work and
     * does not nap, or the work's thread sees the nap and ends it.
     */
    private volatile boolean napping;
    /**
     * The callers stopped for now ({@link #handBack}): the loop does not nap. Set before reading
     * {@link #napping}, which the loop sets before reading this: either the loop sees it and does
     * not nap, or the caller sees the nap and ends it.
     */
    private volatile boolean handedBack;
    /** The loop no longer waits for the turn: it is closing. */
    private volatile boolean closed;
    /**
     * The caller holding the turn met what only the loop serves: it unparks the loop as it hands
     * the turn back. Written and cleared by the holder alone, within its pass.
     */
    private boolean loopNeeded;

    /**
     * @param loop the loop's thread, not yet started: it holds the turn from its start
     * @param napNanos how long the loop naps between its turns while callers receive
     */
    ReceivingTurn(Thread loop, long napNanos) {
        this.loop = loop;
        this.napNanos = napNanos;
        this.holder = new AtomicReference<>(loop);
    }

    /** @return whether {@code thread} holds the turn; any thread */
    boolean heldBy(Thread thread) {
        return holder.get() == thread;
    }

    /**
     * Takes the turn for {@code caller}, the calling thread, for one pass; never blocks. Tells the
     * loop that a caller came, whether or not it gets the turn.
     *
     * @return whether the caller holds the turn now and must {@link #release} it; false at once
     *     if another thread holds it, or the loop waits for it
     */
    boolean tryTake(Thread caller) {
        if (!called) {
            called = true; // stored only when it changes: most calls find it set
        }
        return !loopWaiting && holder.compareAndSet(null, caller);
    }

    /** What the caller holding the turn met needs the loop: it is unparked when the turn is handed back. */
    void needLoop() {
        loopNeeded = true;
    }

    /** Hands back the turn a caller {@linkplain #tryTake took}, unparking the loop if it waits or is needed. */
    void release() {
        boolean unpark = loopNeeded;
        loopNeeded = false;
        holder.set(null);
        if (unpark || loopWaiting) {
            LockSupport.unpark(loop);
        }
    }

    /** @return whether a caller came since the loop last stood back; on the loop's thread */
    boolean called() {
        return called;
    }

    /**
     * On the loop's thread, holding the turn, after a turn in which callers came: hands the turn
     * to them, naps for its nap unless {@code work} says there is some or the turn is
     * closed, and takes the turn back, waiting while a caller holds it, unless closed meanwhile.
     *
     * @param work whether the loop has work that should not wait out the nap; asked after the nap
     *     is announced, so work added with an {@link #endNap} that found no nap is seen here
     * @return nanoseconds the loop waited, after its nap, for a caller to hand the turn back
     */
    long standBack(BooleanSupplier work) {
        called = false;
        napping = true;
        holder.set(null);
        if (!closed && !handedBack && !work.getAsBoolean()) {
            LockSupport.parkNanos(this, napNanos);
        }
        if (handedBack && !closed) {
            // Only a call within the grace keeps the loop standing back: called says whether one came.
            handedBack = false;
            called = false;
            LockSupport.parkNanos(this, HAND_BACK_GRACE_NANOS);
        }
        napping = false;
        if (holder.compareAndSet(null, loop)) {
            return 0;
        }
        long from = System.nanoTime();
        loopWaiting = true;
        while (!holder.compareAndSet(null, loop) && !closed) {
            LockSupport.parkNanos(this, NAP_NANOS); // the caller handing the turn back unparks it
        }
        loopWaiting = false;
        return System.nanoTime() - from;
    }

    /**
     * The callers stop for now: the loop ends its nap, if it naps, and unless a caller comes back
     * within {@link #HAND_BACK_GRACE_NANOS}, goes back to its idle strategy until one comes again,
     * rather than after a nap without one. Any thread.
     */
    void handBack() {
        if (!handedBack) {
            handedBack = true; // stored only when it changes, as called is: a window of requests hands back at each
        }
        if (napping) {
            LockSupport.unpark(loop);
        }
    }

    /** Ends the loop's nap, if it naps, for work that cannot wait; any thread. */
    void endNap() {
        if (napping) {
            LockSupport.unpark(loop);
        }
    }

    /** On the loop's thread as it ends: lets go of the turn if it holds it. */
    void leave() {
        holder.compareAndSet(loop, null);
    }

    /** The loop is closing: it no longer waits for the turn, and its nap ends; any thread, at most once. */
    void close() {
        closed = true;
        LockSupport.unpark(loop);
    }

    /**
     * After {@link #close}, once the loop's thread has ended or was waited for: waits up to
     * {@code timeoutNanos} for a caller's pass still under way (a handler it runs) to hand the turn
     * back, and keeps the turn, given to the loop's thread, for good. Returns at once on the
     * thread holding the turn (a handler closing the loop) and while the loop's thread holds it.
     *
     * @return {@code null} once the turn is the loop's, or the calling thread's; else the caller
     *     still holding it at the deadline
     */
    Thread awaitLastPass(long timeoutNanos) {
        Thread self = Thread.currentThread();
        long deadline = System.nanoTime() + timeoutNanos;
        Thread held = holder.get();
        while (held != self && held != loop && !holder.compareAndSet(null, loop)) {
            if (System.nanoTime() - deadline > 0) {
                return held;
            }
            LockSupport.parkNanos(this, LAST_PASS_POLL_NANOS);
            held = holder.get();
        }
        return null;
    }
}
