package io.polylink.mpi.internal.request;

import io.polylink.mpi.internal.MpiError;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * One communication in flight, completed exactly once. Its outcome (the MPI status: source, tag,
 * bytes, error, cancelled) is written before completion and read after it.
 *
 * <p>Thread-safe: any thread may complete it, one thread waits for it at a time (MPI forbids two
 * waiting for one request), and a listener may follow it.
 */
public abstract class Operation {

    private static final VarHandle LISTENER;
    private static final VarHandle CLAIMED;
    private static final VarHandle DONE;
    private static final VarHandle ATTENDED;
    private static final Runnable FIRED = () -> { };

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            LISTENER = lookup.findVarHandle(Operation.class, "listener", Runnable.class);
            CLAIMED = lookup.findVarHandle(Operation.class, "claimed", boolean.class);
            DONE = lookup.findVarHandle(Operation.class, "done", boolean.class);
            ATTENDED = lookup.findVarHandle(Operation.class, "attended", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Set by the one completion that records the outcome; {@link #done} publishes it. */
    private volatile boolean claimed;
    private volatile boolean done;
    private volatile Thread waiter;
    private volatile boolean attended;
    private Operation owner;
    @SuppressWarnings("unused") // through LISTENER
    private volatile Runnable listener;

    private int source;
    private int tag;
    private long bytes;
    private boolean cancelled;
    private MpiError error;

    /**
     * Records the outcome and completes: wakes the waiter and runs the listener, on this thread.
     *
     * @param source the status's source (a rank of the operation's communicator)
     * @param tag the status's tag
     * @param bytes what was received or sent
     * @param error the MPI error the operation ended with, or {@code null}
     * @return {@code false}, recording nothing, if it was complete already or another thread is
     *     completing it
     */
    protected final boolean complete(int source, int tag, long bytes, MpiError error) {
        return finish(source, tag, bytes, error, false);
    }

    /** Completes as cancelled. @return {@code false} if it was complete already */
    protected final boolean completeCancelled(int source, int tag) {
        return finish(source, tag, 0, null, true);
    }

    /**
     * An operation complete from the start, such as an eager send: its outcome needs no claim.
     * Nothing but its maker sees it before the maker publishes it, so plain writes and a release
     * of {@link #done} order its fields, where volatile writes would cost a fence each.
     */
    protected Operation(int source, int tag, long bytes, MpiError error) {
        this.source = source;
        this.tag = tag;
        this.bytes = bytes;
        this.error = error;
        CLAIMED.set(this, true);
        LISTENER.set(this, FIRED);
        DONE.setRelease(this, true);
    }

    protected Operation() {
    }

    /**
     * One compare-and-set claims the completion; the outcome is written, then published by the
     * release of {@link #done}, which every reader of the outcome reads first.
     */
    private boolean finish(int source, int tag, long bytes, MpiError error, boolean cancelled) {
        if (!CLAIMED.compareAndSet(this, false, true)) {
            return false;
        }
        this.source = source;
        this.tag = tag;
        this.bytes = bytes;
        this.error = error;
        this.cancelled = cancelled;
        DONE.setRelease(this, true);
        // The claim is written before waiter and listener are read, and a thread that registers
        // as either writes it before it reads the claim: one of the two sees the other. So the
        // release of done needs no fence of its own: a registrar that sees the claim waits the few
        // steps until done (see finishing), and one that does not is seen here. An operation
        // nobody listens to (a blocking call's) pays no further atomic instruction.
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
        fire((Runnable) LISTENER.getVolatile(this));
        return true;
    }

    /**
     * @return whether a completion has claimed this operation but not yet published its outcome:
     *     a thread that registered as its waiter must not park, as the completer may have looked
     *     for waiters before it registered, but wait the few steps until {@link #isDone}
     */
    final boolean finishing() {
        return claimed && !done;
    }

    /** Waits, without parking, until a completion that claimed this operation published it. */
    private void awaitFinishing() {
        for (int i = 0; !done; i++) {
            settle(i);
        }
    }

    /**
     * One pause of a thread that waits the few steps between a completion's claim and its outcome
     * ({@link #finishing}): it spins, then yields, should the completing thread have lost its core.
     *
     * @param attempt how many times the caller paused before
     */
    static void settle(int attempt) {
        if (attempt < 100) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }

    /** Runs {@code l} unless it is none, or another thread took it first. */
    private void fire(Runnable l) {
        if (l != null && l != FIRED && LISTENER.compareAndSet(this, l, FIRED)) {
            l.run();
        }
    }

    /** @return whether the operation completed */
    public final boolean isDone() {
        return done;
    }

    /**
     * Runs {@code action} once the operation completes: at once on this thread if it has, else
     * on the completing thread. One listener per operation.
     */
    public final void whenDone(Runnable action) {
        if (!LISTENER.compareAndSet(this, null, action)) {
            action.run();
        } else if (claimed) {
            awaitFinishing();
            fire(action);
        }
    }

    /**
     * Blocks until the operation completes, doing on this thread what work it owes
     * ({@link #assist}). Interrupts do not end the wait (MPI waits are not interruptible); the
     * thread's interrupt status is kept.
     */
    public final void await(Idle idle) {
        if (done) {
            return;
        }
        // Opaque writes, not volatile ones, which would cost a fence each on every wait: while
        // the mark is on its way this thread keeps calling assist until the operation is done, so
        // work offered meanwhile is still done here; once done, the operation owes nothing; and a
        // thread that goes on to park stops attending with a volatile write first.
        ATTENDED.setOpaque(this, true);
        try {
            for (int i = 0; !done; i++) {
                if (!assist() && !idle.pause(i)) {
                    attended = false;
                    parkUntilDone();
                    return;
                }
            }
        } catch (RuntimeException | Error e) {
            attended = false;
            throw e;
        }
        ATTENDED.setOpaque(this, false);
    }

    /** Marks whether a thread waits for this operation without parking. */
    final void attend(boolean busily) {
        attended = busily;
    }

    /** @return whether a thread waits for this operation without parking */
    final boolean attended() {
        return attended;
    }

    /**
     * Waits in the kernel until the operation completes, once it is no longer attended: does the
     * work that was offered before that first, since work offered later goes elsewhere.
     */
    final void parkUntilDone() {
        while (!done) {
            if (!assist()) {
                park();
                return;
            }
        }
    }

    /**
     * Does work this operation owes that is cheaper on the thread waiting for it than handed to
     * another (a rendezvous send's data, once its receiver is clear), if there is any now; for an
     * operation made of others, the work they {@linkplain #offer offered} it.
     *
     * @return whether there was any
     */
    public boolean assist() {
        return false;
    }

    /** @return whether {@link #assist} may ever have work: a wait for several attends only these */
    public boolean mayOwe() {
        return false;
    }

    /**
     * Makes this operation a part of {@code whole} (a step of a collective): the thread waiting for
     * the whole does the work this one owes. Called before anything can complete it.
     */
    public final void partOf(Operation whole) {
        owner = whole;
    }

    /** @return whether this operation is a part of another, a step of a collective */
    public final boolean isPart() {
        return owner != null;
    }

    /**
     * Offers the work this operation owes, once it is available (its {@link #assist} would do it
     * now), to the thread that waits for it or for the whole it is part of.
     *
     * @return whether such a thread waits without parking, and so calls {@link #assist} soon; if
     *     not, the caller has the work done elsewhere ({@link #assist} does it at most once, by
     *     whichever thread comes first)
     */
    protected final boolean offer() {
        Operation whole = owner;
        if (whole == null) {
            return attended;
        }
        whole.owed(this);
        return attended || whole.attended;
    }

    /** Takes note that {@code part} owes work, for {@link #assist}; an operation made of others keeps it. */
    protected void owed(Operation part) {
    }

    private void park() {
        waiter = Thread.currentThread();
        boolean interrupted = false;
        try {
            while (!done) {
                if (claimed) {
                    awaitFinishing();
                    break;
                }
                LockSupport.park(this);
                interrupted |= Thread.interrupted();
            }
        } finally {
            waiter = null;
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Makes {@code thread} the one completion wakes; {@code null} forgets it. */
    final void waitingThread(Thread thread) {
        waiter = thread;
    }

    /**
     * Asks to cancel. Only a receive that nothing matched yet can be cancelled; it then completes
     * as cancelled. Everything else completes as it would have.
     */
    public void cancel() {
    }

    /** @return the status's source; valid once done */
    public final int source() {
        return source;
    }

    /** @return the status's tag; valid once done */
    public final int tag() {
        return tag;
    }

    /** @return the bytes received or sent; valid once done */
    public final long bytes() {
        return bytes;
    }

    /** @return whether it was cancelled; valid once done */
    public final boolean cancelled() {
        return cancelled;
    }

    /** @return the error it ended with, or {@code null}; valid once done */
    public final MpiError error() {
        return error;
    }

    /** @return the error class the status reports: 0 for success */
    public final int errorClass() {
        return error == null ? 0 : error.errorClass();
    }
}
