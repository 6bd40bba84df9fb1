package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Direct;
import io.polylink.mpi.internal.coll.schedule.Plan;
import io.polylink.mpi.internal.datatype.LocalCopy;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.op.Operand;
import io.polylink.mpi.internal.op.Reduction;
import io.polylink.mpi.internal.request.Operation;

/**
 * {@code MPI_Reduce} and {@code MPI_Reduce_local}. A reduction goes up a tree: each rank combines
 * its children's subtree results into its own and sends it to its parent.
 *
 * <ul>
 *   <li>{@code binomial}: the whole vector up a binomial tree, in {@code ceil(log2 n)} steps:
 *       fewest steps, for small vectors and for every operation.
 *   <li>{@code pipeline}: the vector in segments up a chain of the ranks: while a rank combines
 *       segment {@code k} its child sends it segment {@code k + 1}, so a large vector takes about
 *       its own time plus one segment's per rank, instead of its whole time per level.
 *   <li>{@code segmented-binomial}: segments up a binomial tree: fewer hops than a chain for many
 *       ranks, segments still overlapping; and fewer ranks busy at once than in a chain, for ranks
 *       that outnumber their host's cores.
 * </ul>
 * The segmented ones combine parts of the vector, so they take predefined operations only.
 * A commutative operation's tree is rooted at the root (hierarchical over several hosts: each host
 * to its leader, the leaders to the root). A non-commutative one's is binomial, rooted at rank 0,
 * where each subtree holds consecutive ranks and results combine in rank order; rank 0 then sends
 * the result to the root.
 */
public final class Reduce {

    /** Vectors up to this size go whole up a binomial tree. */
    static final long WHOLE_LIMIT = 64 * 1024;

    private Reduce() {}

    /**
     * Starts a reduction to {@code root}.
     *
     * @param sendbuf this rank's data; at the root when {@code inPlace}, ignored: the data is in {@code recvbuf}
     * @param recvbuf the result, at the root; ignored elsewhere
     */
    public static Operation reduce(Collectives c, Object sendbuf, Object recvbuf, int count, Typemap map,
                                   Reduction reduction, int root, boolean inPlace, boolean blocking) {
        int n = c.size();
        int me = c.rank();
        Arguments.root(root, n);
        Region recv = me == root ? Arguments.buffer(recvbuf, count, map, true, "the receive buffer") : null;
        Region input = me == root && inPlace ? recv : Arguments.buffer(sendbuf, count, map, false, "the send buffer");
        boolean commutative = reduction.commutative();
        boolean hierarchical = commutative && c.hierarchical();
        long bytes = map.size() * count;
        Choice choice = choose(c, bytes, reduction, root);
        c.chose(Collective.REDUCE, () -> "MPI_Reduce of " + bytes + " bytes (" + reduction.describe() + ") to rank "
            + root, choice);
        String algorithm = choice.algorithm().replace("hierarchical ", "");
        int top = commutative ? root : 0;
        Trees.Shape shape = algorithm.equals("pipeline") ? Trees.Shape.CHAIN : Trees.Shape.BINOMIAL;
        Trees.Tree tree = c.tree(shape, hierarchical, top);
        // The root combines in its receive buffer, and a leaf sends from its send buffer: no
        // operand of their own to fill and copy out where the kernels can work on the buffer.
        Region home = me == top && me == root ? recv : tree.children().length == 0 ? input : null;
        Partial partial = new Partial(reduction, map, count, home);
        if (blocking && algorithm.equals("binomial") && c.direct(bytes)) {
            reduce(c.direct(), tree, partial, input, input == home, me, top, root, recv);
            return Collectives.DONE;
        }
        Plan plan = c.plan();
        long segment = algorithm.equals("binomial") ? Math.max(1, count)
            : Math.max(1, c.tuning().segment() / Math.max(1, map.size()));
        int done = partial.up(plan, tree, segment, input, input == home, Plan.NONE);
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

    /** The whole vector up {@code tree} and on to the root, run now for a blocking call. */
    private static void reduce(Direct d, Trees.Tree tree, Partial partial, Region input, boolean inResult, int me,
                               int top, int root, Region recv) {
        try {
            partial.loadNow(input, inResult);
            partial.upNow(d, tree);
            if (me == top && me == root) {
                partial.storeNow(recv);
            } else if (me == top) {
                d.send(root, partial.current().region());
            } else if (me == root) {
                d.receive(top, recv);
            }
        } catch (RuntimeException e) {
            throw Direct.failed(e);
        }
    }

    private static Choice choose(Collectives c, long bytes, Reduction reduction, int root) {
        String forced = c.tuning().forced(Collective.REDUCE);
        if (!reduction.commutative()) {
            Choice ordered = new Choice("MPI_Reduce", "binomial", () -> reduction.describe()
                + " is not commutative: a tree from rank 0 combines in rank order"
                + (root == 0 ? "" : ", then rank 0 sends to the root"));
            return forced == null || forced.equals("binomial") ? ordered
                : ordered.refusing(Tuning.PREFIX + "reduce=" + forced + " refused");
        }
        boolean hierarchical = c.hierarchical();
        String prefix = hierarchical ? "hierarchical " : "";
        String where = hierarchical ? "; each host to its leader, the " + c.placement().hosts() + " leaders to the "
            + "root" : "";
        if (forced != null && (forced.equals("binomial") || reduction.splits())) {
            return new Choice("MPI_Reduce", prefix + forced, () -> Tuning.PREFIX + "reduce=" + forced + where);
        }
        if (forced != null) {
            return new Choice("MPI_Reduce", prefix + "binomial", () -> Tuning.PREFIX + "reduce=" + forced + " refused: "
                + reduction.describe() + " combines whole vectors only" + where);
        }
        if (bytes <= WHOLE_LIMIT || !reduction.splits()) {
            return new Choice("MPI_Reduce", prefix + "binomial", () -> (bytes <= WHOLE_LIMIT ? bytes + " bytes <= "
                + WHOLE_LIMIT + ": fewest steps" : reduction.describe() + " combines whole vectors only") + where);
        }
        String tree = Broadcast.treeNotChain(c);
        if (tree == null) {
            return new Choice("MPI_Reduce", prefix + "pipeline", () -> bytes + " bytes > " + WHOLE_LIMIT + " from "
                + c.size() + " <= " + Broadcast.CHAIN_RANKS + " ranks: segments of " + c.tuning().segment()
                + " bytes combine while the next ones move up a chain" + where);
        }
        return new Choice("MPI_Reduce", prefix + "segmented-binomial", () -> bytes + " bytes > " + WHOLE_LIMIT
            + " from " + tree + ": segments of " + c.tuning().segment() + " bytes up a binomial tree" + where);
    }

    /**
     * {@code MPI_Reduce_local}: combines {@code inbuf} into {@code inoutbuf} on this rank, now: in
     * place where the kernels can work on both buffers as they are laid out.
     *
     * @throws io.polylink.mpi.internal.MpiError naming a wrong argument, or what the operation threw
     */
    public static void local(Object inbuf, Object inoutbuf, int count, Typemap map, Reduction reduction) {
        Region in = Arguments.buffer(inbuf, count, map, false, "the input buffer");
        Region inout = Arguments.buffer(inoutbuf, count, map, true, "the input and output buffer");
        Operand a = reduction.operandIn(in, map, count);
        Operand b = reduction.operandIn(inout, map, count);
        if (a != null && b != null) {
            reduction.combine(a, b, 0, count);
            return;
        }
        // A layout the kernels cannot work on where it lies, or a user's function: through operands of their own.
        a = reduction.operand(map, count);
        b = reduction.operand(map, count);
        LocalCopy.copy(in, a.region());
        LocalCopy.copy(inout, b.region());
        reduction.combine(a, b, 0, count);
        LocalCopy.copy(b.region(), inout);
    }

    /** @return the ranks {@code 0} to {@code n - 1} */
    static int[] all(int n) {
        int[] ranks = new int[n];
        for (int i = 0; i < n; i++) {
            ranks[i] = i;
        }
        return ranks;
    }
}
