package io.polylink.mpi.internal.coll.schedule;

import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.request.Operation;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/** One step of a schedule: a send, a receive or a local action, and the steps that wait for it. */
final class Step {

    /**
     * What a step does. A lending send may lend its data to its message rather than copy it, and
     * completes when the receiver acknowledged it: for a segment of a pipeline, whose wait for
     * the acknowledgement overlaps the segments after it. A referring send goes by reference where
     * its data lies in a buffer the host's ranks share, and completes once the receiver read it:
     * for an exchange, whose partner receives without waiting for its own send.
     */
    enum Kind { SEND, LENDING_SEND, REFERRING_SEND, RECEIVE, LOCAL }

    private static final int[] NONE = new int[0];
    private static final AtomicIntegerFieldUpdater<Step> WAITING =
        AtomicIntegerFieldUpdater.newUpdater(Step.class, "waiting");

    final Kind kind;
    /** The other rank, as a rank of the job; -1 for a local step. */
    final int peer;
    final int tag;
    final Region region;
    final Runnable action;
    /** The first step that waits for this one: most have one, and keep it without an array. */
    private int firstDependent;
    /** The others. */
    private int[] dependents = NONE;
    private int dependentCount;
    /** The steps this one still waits for. */
    @SuppressWarnings("unused") // through WAITING
    private volatile int waiting;
    /** The send or receive, once started. */
    volatile Operation operation;
    /** The step below this one in its schedule's stack of ready steps. */
    Step nextReady;

    Step(Kind kind, int peer, int tag, Region region, Runnable action) {
        this.kind = kind;
        this.peer = peer;
        this.tag = tag;
        this.region = region;
        this.action = action;
    }

    /** Makes step {@code id} wait for this one. Only while the plan is built. */
    void before(int id) {
        if (dependentCount == 0) {
            firstDependent = id;
        } else {
            if (dependentCount - 1 == dependents.length) {
                dependents = Arrays.copyOf(dependents, Math.max(4, dependents.length * 2));
            }
            dependents[dependentCount - 1] = id;
        }
        dependentCount++;
    }

    /** This step waits for one more. Only while the plan is built. */
    void waitOne() {
        WAITING.incrementAndGet(this);
    }

    boolean ready() {
        return waiting == 0;
    }

    /** One step this one waited for completed. @return whether it waits for nothing more */
    boolean arrive() {
        return WAITING.decrementAndGet(this) == 0;
    }

    int dependentCount() {
        return dependentCount;
    }

    int dependent(int i) {
        return i == 0 ? firstDependent : dependents[i - 1];
    }
}
