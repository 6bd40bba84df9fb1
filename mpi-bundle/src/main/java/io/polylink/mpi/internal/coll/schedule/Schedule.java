package io.polylink.mpi.internal.coll.schedule;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.p2p.PointToPoint;
import io.polylink.mpi.internal.p2p.RankMap;
import io.polylink.mpi.internal.request.Operation;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A collective call in progress at this rank: the steps of its {@link Plan}, each started once the
 * steps it waits for completed, on the thread that completed the last of them. Completes once
 * every step did, or with the first step's error; then the receives still posted are withdrawn.
 *
 * <p>Steps that become ready are queued and run by one thread at a time, the one that found the
 * queue idle, so a long chain of steps that complete at once (messages that arrived early) runs
 * in a loop, not in a recursion as deep as the chain.
 */
public final class Schedule extends Operation {

    static final Runnable NOTHING = () -> { };

    private final PointToPoint p2p;
    private final int context;
    private final RankMap ranks;
    private final int rank;
    private final Step[] steps;
    private final AtomicInteger left;
    private final ConcurrentLinkedQueue<Step> ready = new ConcurrentLinkedQueue<>();
    private final AtomicInteger work = new AtomicInteger();
    private final ConcurrentLinkedQueue<Operation> owed = new ConcurrentLinkedQueue<>();
    private volatile MpiError failure;

    Schedule(PointToPoint p2p, int context, RankMap ranks, int rank, Step[] steps) {
        this.p2p = p2p;
        this.context = context;
        this.ranks = ranks;
        this.rank = rank;
        this.steps = steps;
        this.left = new AtomicInteger(steps.length);
    }

    Schedule start() {
        if (steps.length == 0) {
            complete(PointToPoint.ANY, PointToPoint.ANY, 0, null);
            return this;
        }
        for (Step s : steps) {
            if (s.ready()) {
                ready.add(s);
            }
        }
        drain();
        return this;
    }

    /** Runs the ready steps, unless another thread does already; then it runs the ones queued meanwhile too. */
    private void drain() {
        if (work.getAndIncrement() != 0) {
            return;
        }
        do {
            for (Step s = ready.poll(); s != null; s = ready.poll()) {
                if (failure != null) {
                    ready.clear();
                    break;
                }
                run(s);
            }
        } while (work.decrementAndGet() != 0);
    }

    private void run(Step s) {
        try {
            switch (s.kind) {
                case SEND -> {
                    Region r = s.region;
                    Operation op = p2p.send(context, s.peer, rank, s.tag, r.memory(), r.map(),
                        r.count(), false, this);
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
        } catch (MpiError e) {
            fail(e);
        } catch (RuntimeException e) {
            fail(new MpiError(ErrorClass.ERR_INTERN, "a step of a collective failed: " + e, e));
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
                ready.add(d);
            }
        }
        if (left.decrementAndGet() == 0) {
            complete(PointToPoint.ANY, PointToPoint.ANY, 0, null);
        } else {
            drain();
        }
    }

    /** Keeps what a step owes for the thread waiting for the call, which does it in {@link #assist}. */
    @Override
    protected void owed(Operation part) {
        owed.add(part);
    }

    @Override
    public boolean mayOwe() {
        return true;
    }

    @Override
    public boolean assist() {
        boolean did = false;
        for (Operation part = owed.poll(); part != null; part = owed.poll()) {
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
        for (Step s : steps) {
            Operation op = s.operation;
            if (op != null && !op.isDone()) {
                op.cancel();
            }
        }
        complete(PointToPoint.ANY, PointToPoint.ANY, 0, error);
    }
}
