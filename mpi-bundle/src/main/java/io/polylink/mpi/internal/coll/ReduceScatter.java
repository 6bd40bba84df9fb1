package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Plan;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.op.Operand;
import io.polylink.mpi.internal.op.Reduction;
import io.polylink.mpi.internal.request.Operation;

/**
 * {@code MPI_Reduce_scatter} and {@code MPI_Reduce_scatter_block}: the reduction of all ranks'
 * vectors, block {@code i} of it to rank {@code i}.
 *
 * <ul>
 *   <li>{@code ring}: in round {@code k} each rank sends the partial result of one block to the
 *       next rank and combines the one it receives into its own: {@code n - 1} rounds, each block
 *       combined once per rank, for predefined operations.
 *   <li>{@code reduce-scatterv}: a reduction to rank 0 in rank order, then rank 0 sends each rank
 *       its block: for every operation.
 * </ul>
 */
public final class ReduceScatter {

    private ReduceScatter() {}

    /**
     * Starts a reduce-scatter.
     *
     * @param sendbuf the whole vector at this rank; when {@code inPlace}, ignored: the vector is in {@code recvbuf}
     * @param recvbuf this rank's block of the result (when {@code inPlace}, at its start)
     * @param recvcounts each rank's block, in elements
     * @param function {@code MPI_Reduce_scatter} or {@code MPI_Reduce_scatter_block}, for the record
     */
    public static Operation reduceScatter(Collectives c, Object sendbuf, Object recvbuf, int[] recvcounts,
                                          Typemap map, Reduction reduction, boolean inPlace, String function) {
        int n = c.size();
        int me = c.rank();
        Arguments.counts(recvcounts, null, n, "the receive buffer");
        long total = 0;
        long[] displs = new long[n];
        for (int i = 0; i < n; i++) {
            displs[i] = total;
            total += recvcounts[i];
        }
        if (total > Integer.MAX_VALUE) {
            throw Arguments.mismatch(function + ": the blocks add up to " + total + " elements, more than an int");
        }
        Region input;
        Region recv;
        if (inPlace) {
            input = Arguments.buffer(recvbuf, (int) total, map, true, "the buffer");
            recv = input.slice(0, recvcounts[me]);
        } else {
            input = Arguments.buffer(sendbuf, (int) total, map, false, "the send buffer");
            recv = Arguments.buffer(recvbuf, recvcounts[me], map, true, "the receive buffer");
        }
        Choice choice = choose(c, reduction, function);
        long elements = total;
        c.chose(Collective.REDUCE_SCATTER, () -> function + " of " + elements + " elements (" + reduction.describe()
            + ")", choice);
        Plan plan = c.plan();
        Partial partial = new Partial(reduction, map, total);
        int loaded = partial.load(plan, input);
        int done;
        if (n == 1) {
            done = loaded;
        } else if (choice.algorithm().equals("ring")) {
            done = ring(plan, recvcounts, displs, partial, loaded);
        } else {
            done = partial.up(plan, Trees.binomial(Reduce.all(n), 0, me), loaded);
            if (me != 0) {
                plan.receive(0, recv, done);
                return plan.start();
            }
            for (int i = 1; i < n; i++) {
                plan.send(i, partial.current().slice(displs[i], recvcounts[i]), done);
            }
        }
        partial.store(plan, displs[me], recvcounts[me], recv, done);
        return plan.start();
    }

    private static Choice choose(Collectives c, Reduction reduction, String function) {
        boolean ring = reduction.splits() && reduction.commutative();
        String forced = c.tuning().forced(Collective.REDUCE_SCATTER);
        if (forced != null && (ring || !forced.equals("ring"))) {
            return new Choice(function, forced, () -> Tuning.PREFIX + "reducescatter=" + forced);
        }
        if (ring) {
            return new Choice(function, "ring", () -> "a predefined operation: each block combined once per rank");
        }
        return new Choice(function, "reduce-scatterv", () -> reduction.describe() + " combines whole vectors only"
            + (forced != null ? " (" + Tuning.PREFIX + "reducescatter=" + forced + " refused)" : ""));
    }

    /**
     * In round {@code k} each rank sends block {@code me - k - 1} to the next rank and combines
     * block {@code me - k - 2} from the previous into its own; after {@code n - 1} rounds its own
     * block holds everyone's.
     */
    private static int ring(Plan plan, int[] counts, long[] displs, Partial partial, int after) {
        int n = plan.size();
        int me = plan.rank();
        Operand in = partial.spare();
        Operand mine = partial.current();
        int done = after;
        for (int k = 0; k < n - 1; k++) {
            int out = Math.floorMod(me - k - 1, n);
            int got = Math.floorMod(me - k - 2, n);
            int sent = plan.send((me + 1) % n, mine.slice(displs[out], counts[out]), done);
            done = partial.absorbArriving(plan, (me - 1 + n) % n, in, displs[got], counts[got], Plan.NONE, done, sent);
        }
        return done;
    }

    /** @return {@code count} for each of {@code n} ranks */
    public static int[] blocks(int n, int count) {
        int[] counts = new int[n];
        java.util.Arrays.fill(counts, count);
        return counts;
    }
}
