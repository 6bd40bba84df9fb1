package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Plan;
import io.polylink.mpi.internal.datatype.LocalCopy;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.op.Operand;
import io.polylink.mpi.internal.op.Reduction;
import io.polylink.mpi.internal.request.Operation;
import java.util.stream.IntStream;

/**
 * {@code MPI_Reduce} and {@code MPI_Reduce_local}. A reduction goes up a binomial tree: each rank
 * combines its children's subtree results into its own and sends it to its parent. A commutative
 * operation's tree is rooted at the root (hierarchical over several hosts: each host to its
 * leader, the leaders to the root). A non-commutative one's is rooted at rank 0, where each
 * subtree holds consecutive ranks and results combine in rank order; rank 0 then sends the result
 * to the root.
 */
public final class Reduce {

    private Reduce() {}

    /**
     * Starts a reduction to {@code root}.
     *
     * @param sendbuf this rank's data; at the root when {@code inPlace}, ignored: the data is in {@code recvbuf}
     * @param recvbuf the result, at the root; ignored elsewhere
     */
    public static Operation reduce(Collectives c, Object sendbuf, Object recvbuf, int count, Typemap map,
                                   Reduction reduction, int root, boolean inPlace) {
        int n = c.size();
        int me = c.rank();
        Arguments.root(root, n);
        Region recv = me == root ? Arguments.buffer(recvbuf, count, map, true, "the receive buffer") : null;
        Region input = me == root && inPlace ? recv : Arguments.buffer(sendbuf, count, map, false, "the send buffer");
        boolean commutative = reduction.commutative();
        boolean hierarchical = commutative && c.hierarchical();
        Choice choice = new Choice("MPI_Reduce", (hierarchical ? "hierarchical " : "") + "binomial",
            commutative ? (hierarchical ? "the hosts' leaders reduce their hosts' data, then to the root"
                : "a tree rooted at the root") : reduction.describe() + " is not commutative: a tree from rank 0 "
                + "combines in rank order" + (root == 0 ? "" : ", then rank 0 sends to the root"));
        c.chose(Collective.REDUCE, "MPI_Reduce of " + count + " elements (" + reduction.describe() + ") to rank "
            + root, choice);
        Plan plan = c.plan();
        int top = commutative ? root : 0;
        Trees.Tree tree = Trees.over(c.placement(), hierarchical, Trees.Shape.BINOMIAL, top, me, n);
        Partial partial = new Partial(reduction, map, count);
        int done = partial.up(plan, tree, partial.load(plan, input));
        if (me == top) {
            if (me == root) {
                partial.store(plan, 0, count, recv, done);
            } else {
                plan.send(root, partial.current().region(), done);
            }
        } else if (me == root) {
            plan.receive(top, recv, done); // after its own data left: in place, the result overwrites it
        }
        return plan.start();
    }

    /**
     * {@code MPI_Reduce_local}: combines {@code inbuf} into {@code inoutbuf} on this rank, now.
     *
     * @throws io.polylink.mpi.internal.MpiError naming a wrong argument, or what the operation threw
     */
    public static void local(Object inbuf, Object inoutbuf, int count, Typemap map, Reduction reduction) {
        Region in = Arguments.buffer(inbuf, count, map, false, "the input buffer");
        Region inout = Arguments.buffer(inoutbuf, count, map, true, "the input and output buffer");
        Operand a = reduction.operand(map, count);
        Operand b = reduction.operand(map, count);
        LocalCopy.copy(in, a.region());
        LocalCopy.copy(inout, b.region());
        reduction.combine(a, b, 0, count);
        LocalCopy.copy(b.region(), inout);
    }

    /** @return the ranks {@code 0} to {@code n - 1} */
    static int[] all(int n) {
        return IntStream.range(0, n).toArray();
    }
}
