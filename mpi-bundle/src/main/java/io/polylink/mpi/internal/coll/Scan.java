package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Plan;
import io.polylink.mpi.internal.datatype.LocalCopy;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.op.Operand;
import io.polylink.mpi.internal.op.Reduction;
import io.polylink.mpi.internal.request.Operation;

/**
 * {@code MPI_Scan} and {@code MPI_Exscan}: rank {@code i} gets the reduction of ranks {@code 0}
 * to {@code i} (scan) or {@code 0} to {@code i - 1} (exclusive scan; nothing at rank 0), by
 * recursive doubling: in round {@code k} each rank swaps the reduction of its block of
 * {@code 2^k} ranks with the rank {@code 2^k} away, and takes a lower block's into its result.
 * Every operation: a partner's block is all lower or all higher ranks.
 */
public final class Scan {

    private Scan() {}

    /**
     * Starts a scan.
     *
     * @param sendbuf this rank's data; ignored when {@code inPlace}: the data is in {@code recvbuf}
     * @param exclusive whether it is {@code MPI_Exscan}
     */
    public static Operation scan(Collectives c, Object sendbuf, Object recvbuf, int count, Typemap map,
                                 Reduction reduction, boolean inPlace, boolean exclusive) {
        Region recv = Arguments.buffer(recvbuf, count, map, true, "the receive buffer");
        Region input = inPlace ? recv : Arguments.buffer(sendbuf, count, map, false, "the send buffer");
        String function = exclusive ? "MPI_Exscan" : "MPI_Scan";
        String forced = c.tuning().forced(Collective.SCAN);
        c.chose(Collective.SCAN, () -> function + " of " + count + " elements (" + reduction.describe() + ")",
            new Choice(function, "recursive-doubling", () -> forced != null ? Tuning.PREFIX + "scan=" + forced
                : "log2 n rounds, for every operation"));
        Plan plan = c.plan();
        int me = c.rank();
        Partial partial = new Partial(reduction, map, count);
        int done = partial.load(plan, input);
        Partial result = exclusive ? null : new Partial(reduction, map, count);
        if (result != null) {
            done = plan.join(done, result.load(plan, input));
        }
        for (int mask = 1; mask < c.size(); mask <<= 1) {
            int partner = me ^ mask;
            if (partner >= c.size()) {
                continue;
            }
            Operand in = partial.fresh();
            int sent = plan.send(partner, partial.current().region(), done);
            int received = plan.receive(partner, in.region());
            if (partner < me) {
                if (result == null) {
                    result = new Partial(reduction, map, count);
                    Region into = result.current().region();
                    done = plan.local(() -> LocalCopy.copy(in.region(), into), received, done);
                } else {
                    done = result.absorb(plan, in, true, received, done);
                }
                done = partial.absorb(plan, in, true, sent, done);
            } else {
                done = partial.absorb(plan, in, false, sent, received, done);
            }
        }
        if (result != null && (!exclusive || me > 0)) {
            result.store(plan, 0, count, recv, done);
        }
        return plan.start();
    }
}
