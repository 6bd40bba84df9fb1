package io.polylink.mpi.internal.p2p;

import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.Cursor;
import io.polylink.mpi.internal.datatype.Memory;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.request.Operation;
import io.polylink.mpi.internal.shared.Bounces;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A send that waits for its receiver: a large message until its data is handed over after CTS,
 * a synchronous-mode one until SYNC_ACK says a receive matched it.
 *
 * <p>Once CTS came, the data is owed: the thread waiting for the send pushes it, or, if none
 * waits without parking, one of the {@link Pushers}. Whoever claims it first pushes it, once.
 */
final class SendOperation extends Operation {

    private static final VarHandle PUSH;
    private static final VarHandle LOANS;
    // push is 0 until CTS came
    private static final int OWED = 1;
    private static final int CLAIMED = 2;

    static {
        try {
            PUSH = MethodHandles.lookup().findVarHandle(SendOperation.class, "push", int.class);
            LOANS = MethodHandles.lookup().findVarHandle(SendOperation.class, "loans", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The communicator's context id: its links carry the data. */
    final int context;
    final int destination;
    private final int rank;
    private final int tag;
    private final Memory memory;
    private final Typemap map;
    private final long count;

    @SuppressWarnings("unused") // through PUSH
    private volatile int push;
    /** Chunks whose lent data the links still hold, and one for the push until it is done. */
    @SuppressWarnings("unused") // through LOANS
    private volatile int loans = 1;
    private final Runnable loanBack = this::loanBack;
    // Written before push becomes OWED, read after it is claimed.
    private Protocol protocol;
    private long receiverRequest;
    private long accepted;
    // Written before the RTS goes, read by the thread that completes the send.
    private Bounces bounces;
    private Bounces.Bounce bounce;

    /**
     * @param context the communicator's context id
     * @param destination the receiver's rank in the job
     * @param rank the sender's rank in the communicator, for the status
     */
    SendOperation(int context, int destination, int rank, int tag, Memory memory, Typemap map, long count) {
        this.context = context;
        this.destination = destination;
        this.rank = rank;
        this.tag = tag;
        this.memory = memory;
        this.map = map;
        this.count = count;
    }

    /** The message was packed into {@code bounce}, which goes back to {@code pool} once the send completes. */
    void bouncedThrough(Bounces pool, Bounces.Bounce bounce) {
        this.bounces = pool;
        this.bounce = bounce;
    }

    /** @return the bytes the message takes on the wire */
    long length() {
        return map.size() * count;
    }

    /** @return a cursor over the message's data, from its start */
    Cursor cursor() {
        return new Cursor(memory, map, count);
    }

    /** @return the most bytes of whole primitives within the first {@code accepted} bytes of the message */
    long wholeWithin(long accepted) {
        return map.wholeBytesWithin(Math.min(accepted, length()));
    }

    /**
     * The receiver is clear: {@code accepted} bytes go to its request {@code receiverRequest}.
     *
     * @return whether a thread waits for this send and will push the data itself
     */
    boolean clear(Protocol by, long request, long bytes) {
        this.protocol = by;
        this.receiverRequest = request;
        this.accepted = bytes;
        PUSH.setVolatile(this, OWED);
        return offer();
    }

    @Override
    public boolean mayOwe() {
        return true;
    }

    @Override
    public boolean assist() {
        if ((int) PUSH.getVolatile(this) != OWED || !PUSH.compareAndSet(this, OWED, CLAIMED)) {
            return false;
        }
        protocol.push(this, receiverRequest, accepted);
        return true;
    }

    /**
     * The data is on its way, perhaps from loans still out ({@link #lent}): the send completes once
     * the last comes back.
     */
    void pushed() {
        loanBack();
    }

    /**
     * A chunk carries data lent from the application's buffer: the send waits for it to come back,
     * since the link may read it again until the receiver acknowledged it.
     *
     * @return what the chunk runs when the loan comes back, on whichever thread let go of it
     */
    Runnable lent() {
        LOANS.getAndAdd(this, 1);
        return loanBack;
    }

    private void loanBack() {
        if ((int) LOANS.getAndAdd(this, -1) == 1) {
            done(); // nothing if a failure completed it first
        }
    }

    /** Completes: the message was handed over, or a receive matched it. */
    void done() {
        if (complete(rank, tag, length(), null) && bounce != null) {
            bounces.give(bounce); // read, or pushed from the message's own memory instead
        }
    }

    void fail(MpiError error) {
        if (complete(rank, tag, 0, error) && bounce != null) {
            bounces.discard(bounce); // the receiver may be reading it still
        }
    }
}
