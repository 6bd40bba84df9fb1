package io.polylink.mpi.internal.coll.schedule;

import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.p2p.PointToPoint;
import io.polylink.mpi.internal.p2p.RankMap;
import java.util.Arrays;
import java.util.List;

/**
 * The steps of one collective call at this rank, as an algorithm describes them; then
 * {@link #start()}. Each step method returns the step's id, which later steps name to wait for
 * it; a negative id waits for nothing. Used by one thread.
 */
public final class Plan {

    /** No step: what a step that waits for nothing names. */
    public static final int NONE = -1;

    private final PointToPoint p2p;
    private final int context;
    private final RankMap ranks;
    private final int rank;
    private final CallTags tags;
    private Step[] steps = new Step[8];
    private int stepCount;

    /**
     * @param context the communicator's collective context id
     * @param ranks the communicator's ranks
     * @param rank this rank in the communicator
     * @param size the communicator's size
     * @param sequence the collective's number on the communicator, the same at every rank
     */
    public Plan(PointToPoint p2p, int context, RankMap ranks, int rank, int size, int sequence) {
        this.p2p = p2p;
        this.context = context;
        this.ranks = ranks;
        this.rank = rank;
        this.tags = new CallTags(sequence, size);
    }

    /** @return this rank in the communicator */
    public int rank() {
        return rank;
    }

    /** @return the number of ranks of the communicator */
    public int size() {
        return tags.size();
    }

    /** Sends {@code data} to rank {@code to} of the communicator, once the steps {@code after} completed. */
    public int send(int to, Region data, int... after) {
        return add(sendStep(to, data), after);
    }

    /** Sends {@code data} to rank {@code to} once step {@code after} completed: the common case, with no array. */
    public int send(int to, Region data, int after) {
        return add(sendStep(to, data), after);
    }

    /**
     * Sends {@code data}, one segment of several, to rank {@code to} once step {@code after}
     * completed; the data may be lent to the message rather than copied into it, and the send
     * then completes when the receiver acknowledged it ({@link Step.Kind#LENDING_SEND}).
     */
    public int sendSegment(int to, Region data, int after) {
        return add(new Step(Step.Kind.LENDING_SEND, ranks.worldRank(to), tags.toward(to), data, null), after);
    }

    /**
     * Sends {@code data} to rank {@code to} once step {@code after} completed, by reference where it
     * lies in a buffer the host's ranks share, completing once the receiver read it
     * ({@link Step.Kind#REFERRING_SEND}): for an exchange, whose receiver never waits for its own
     * send before it receives.
     */
    public int sendByReference(int to, Region data, int after) {
        return add(new Step(Step.Kind.REFERRING_SEND, ranks.worldRank(to), tags.toward(to), data, null), after);
    }

    /** Receives into {@code data} from rank {@code from}, once the steps {@code after} completed. */
    public int receive(int from, Region data, int... after) {
        return add(receiveStep(from, data), after);
    }

    /** Receives into {@code data} from rank {@code from} at once. */
    public int receive(int from, Region data) {
        return add(receiveStep(from, data), NONE);
    }

    /** Receives into {@code data} from rank {@code from} once step {@code after} completed. */
    public int receive(int from, Region data, int after) {
        return add(receiveStep(from, data), after);
    }

    /** Runs {@code action} on this rank, once the steps {@code after} completed. */
    public int local(Runnable action, int... after) {
        return add(localStep(action), after);
    }

    /** Runs {@code action} on this rank once step {@code after} completed. */
    public int local(Runnable action, int after) {
        return add(localStep(action), after);
    }

    private Step sendStep(int to, Region data) {
        return new Step(Step.Kind.SEND, ranks.worldRank(to), tags.toward(to), data, null);
    }

    private Step receiveStep(int from, Region data) {
        return new Step(Step.Kind.RECEIVE, ranks.worldRank(from), tags.from(from), data, null);
    }

    private static Step localStep(Runnable action) {
        return new Step(Step.Kind.LOCAL, -1, 0, null, action);
    }

    /** @return a step that completes once the steps {@code after} did, to wait for all of them at once */
    public int join(int... after) {
        return local(Schedule.NOTHING, after);
    }

    /** @return a step that completes once the steps {@code after} did */
    public int join(List<Integer> after) {
        return join(after.stream().mapToInt(Integer::intValue).toArray());
    }

    private int add(Step step, int[] after) {
        for (int a : after) {
            waitFor(step, a);
        }
        return append(step);
    }

    private int add(Step step, int after) {
        waitFor(step, after);
        return append(step);
    }

    /** Makes {@code step}, about to be appended, wait for step {@code after}, unless that is {@link #NONE}. */
    private void waitFor(Step step, int after) {
        if (after >= 0) {
            steps[after].before(stepCount);
            step.waitOne();
        }
    }

    private int append(Step step) {
        int id = stepCount;
        if (id == steps.length) {
            steps = Arrays.copyOf(steps, id * 2);
        }
        steps[stepCount++] = step;
        return id;
    }

    /**
     * Starts the steps that wait for nothing; the others follow as their steps complete.
     *
     * @return the schedule, complete once all its steps are, or at the first that fails
     */
    public Schedule start() {
        return new Schedule(p2p, context, ranks, rank, steps, stepCount).start();
    }
}
