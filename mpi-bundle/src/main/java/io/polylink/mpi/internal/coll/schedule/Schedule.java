package io.polylink.mpi.internal.coll.schedule;

import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.p2p.PointToPoint;
import io.polylink.mpi.internal.p2p.PointToPoint.Handover;
import io.polylink.mpi.internal.p2p.RankMap;
import io.polylink.mpi.internal.request.Operation;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A collective call in progress at this rank: the steps of its {@link Plan}, each started once the
 * steps it waits for completed, on the thread that completed the last of them. Completes once
 * every step did, or with the first step's error; then the receives still posted are withdrawn.
 *
 * <p>Steps that become ready are queued and run by one thread at a time, the one that found the
 * queue idle, so a long chain of steps that complete at once (messages that arrived early) runs
 * in a loop, not in a recursion as deep as the chain. The queue is a stack linked through the
 * steps themselves, taken whole and run in the order the steps became ready: a call allocates
 * nothing to queue its steps.
 */
public final class Schedule extends Operation {

    static final Runnable NOTHING = () -> { };

    private static final VarHandle LEFT;
    private static final VarHandle READY;
    private static final VarHandle WORK;
    private static final VarHandle OWED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            LEFT = lookup.findVarHandle(Schedule.class, "left", int.class);
            READY = lookup.findVarHandle(Schedule.class, "ready", Step.class);
            WORK = lookup.findVarHandle(Schedule.class, "work", int.class);
            OWED = lookup.findVarHandle(Schedule.class, "owed", ConcurrentLinkedQueue.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final PointToPoint p2p;
    private final int context;
    private final RankMap ranks;
    private final int rank;
    private final Step[] steps;
    private final int stepCount;
    /** Steps not completed yet. */
    @SuppressWarnings("unused") // through LEFT
    private volatile int left;
    /** The steps ready to run, the last to become ready first, linked by {@link Step#nextReady}. */
    @SuppressWarnings("unused") // through READY
    private volatile Step ready;
    /** Calls of {@link #drain} not answered yet: the one that made it 1 runs the steps. */
    @SuppressWarnings("unused") // through WORK
    private volatile int work;
    /** What parts owe the waiting thread; made by the first, since only large sends owe anything. */
    @SuppressWarnings("unused") // through OWED
    private volatile ConcurrentLinkedQueue<Operation> owed;
    private volatile MpiError failure;

    /** @param steps the plan's steps, the first {@code stepCount} of them */
    Schedule(PointToPoint p2p, int context, RankMap ranks, int rank, Step[] steps, int stepCount) {
        this.p2p = p2p;
        this.context = context;
        this.ranks = ranks;
        this.rank = rank;
        this.steps = steps;
        this.stepCount = stepCount;
        this.left = stepCount;
    }

    Schedule start() {
        if (stepCount == 0) {
            complete(PointToPoint.ANY, PointToPoint.ANY, 0, null);
            return this;
        }
        for (int i = 0; i < stepCount; i++) {
            if (steps[i].ready()) {
                push(steps[i]);
            }
        }
        drain();
        return this;
    }

    private void push(Step s) {
        Step head;
        do {
            head = (Step) READY.getVolatile(this);
            s.nextReady = head;
        } while (!READY.compareAndSet(this, head, s));
    }

    /** Runs the ready steps, unless another thread does already; then it runs the ones queued meanwhile too. */
    private void drain() {
        if ((int) WORK.getAndAdd(this, 1) != 0) {
            return;
        }
        do {
            for (Step batch = inReadyOrder((Step) READY.getAndSet(this, null)); batch != null; ) {
                Step s = batch;
                batch = s.nextReady;
                s.nextReady = null;
                if (failure == null) {
                    run(s);
                }
            }
        } while ((int) WORK.getAndAdd(this, -1) != 1);
    }

    /** @return the stack {@code top} reversed: its steps in the order they became ready */
    private static Step inReadyOrder(Step top) {
        Step first = null;
        while (top != null) {
            Step next = top.nextReady;
            top.nextReady = first;
            first = top;
            top = next;
        }
        return first;
    }

    private void run(Step s) {
        try {
            switch (s.kind) {
                case SEND, LENDING_SEND, REFERRING_SEND -> {
                    Region r = s.region;
                    Handover handover = switch (s.kind) {
                        case LENDING_SEND -> Handover.LEND;
                        case REFERRING_SEND -> Handover.REFER;
                        default -> Handover.COPY;
                    };
                    Operation op = p2p.send(context, s.peer, rank, s.tag, r.memory(), r.map(), r.count(), false, this,
                        handover);
                    s.operation = op;
                    op.whenDone(() -> finished(s));
                }
                case RECEIVE -> {
                    Region r = s.region;
                    Operation op = p2p.receive(context, s.peer, s.tag, r.memory(), r.map(), r.count(), ranks);
                    s.operation = op;
                    op.whenDone(() -> finished(s));
                }
                case LOCAL -> {
                    s.action.run();
                    finished(s);
                }
            }
        } catch (RuntimeException e) {
            fail(Direct.failed(e));
        }
    }

    private void finished(Step s) {
        Operation op = s.operation;
        if (op != null && op.error() != null) {
            fail(op.error());
            return;
        }
        for (int i = 0; i < s.dependentCount(); i++) {
            Step d = steps[s.dependent(i)];
            if (d.arrive()) {
                push(d);
            }
        }
        if ((int) LEFT.getAndAdd(this, -1) == 1) {
            complete(PointToPoint.ANY, PointToPoint.ANY, 0, null);
        } else {
            drain();
        }
    }

    /** Keeps what a step owes for the thread waiting for the call, which does it in {@link #assist}. */
    @Override
    protected void owed(Operation part) {
        ConcurrentLinkedQueue<Operation> queue = owed;
        if (queue == null) {
            OWED.compareAndSet(this, null, new ConcurrentLinkedQueue<Operation>());
            queue = owed;
        }
        queue.add(part);
    }

    @Override
    public boolean mayOwe() {
        return true;
    }

    @Override
    public boolean assist() {
        ConcurrentLinkedQueue<Operation> queue = owed;
        if (queue == null) {
            return false;
        }
        boolean did = false;
        for (Operation part = queue.poll(); part != null; part = queue.poll()) {
            did |= part.assist();
        }
        return did;
    }

    /** Completes with {@code error}, withdrawing the receives still posted, unless it failed already. */
    private void fail(MpiError error) {
        synchronized (this) {
            if (failure != null) {
                return;
            }
            failure = error;
        }
        for (int i = 0; i < stepCount; i++) {
            Operation op = steps[i].operation;
            if (op != null && !op.isDone()) {
                op.cancel();
            }
        }
        complete(PointToPoint.ANY, PointToPoint.ANY, 0, error);
    }
}
