package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Direct;
import io.polylink.mpi.internal.coll.schedule.Plan;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.request.Operation;

/**
 * {@code MPI_Bcast}: the root's data to every rank, along a tree.
 *
 * <ul>
 *   <li>{@code binomial}: the whole message down a binomial tree, in {@code ceil(log2 n)} steps:
 *       fewest steps, for small messages.
 *   <li>{@code pipeline}: the message in segments down a chain of the ranks: while one rank
 *       receives segment {@code k} it passes segment {@code k - 1} on, so a large message takes
 *       about its own time plus one segment's per rank.
 *   <li>{@code segmented-binomial}: segments down a binomial tree: fewer hops than a chain for many
 *       ranks, segments still overlapping; and fewer ranks busy at once than in a chain, for ranks
 *       that outnumber their host's cores.
 * </ul>
 *
 * Over several hosts the tree is hierarchical: leaders first, then each host from its leader
 * (segments pass on within a host while later ones still cross between hosts).
 */
public final class Broadcast {

    /** Messages up to this size go whole down a binomial tree. */
    static final long WHOLE_LIMIT = 64 * 1024;
    /** Above this many ranks a pipeline runs down a binomial tree rather than a chain. */
    static final int CHAIN_RANKS = 8;

    private Broadcast() {}

    /**
     * Starts a broadcast of {@code count} elements of {@code map} in {@code buf} from {@code root}.
     *
     * @throws io.polylink.mpi.internal.MpiError naming a wrong argument
     */
    public static Operation start(Collectives c, Object buf, int count, Typemap map, int root, boolean blocking) {
        Arguments.root(root, c.size());
        Region data = Arguments.buffer(buf, count, map, c.rank() != root, "the buffer");
        long bytes = data.bytes();
        Choice choice = c.remembered(Collective.BCAST, bytes, 0, false);
        if (choice == null) {
            choice = c.remember(Collective.BCAST, bytes, 0, false, choose(c, bytes));
        }
        c.chose(Collective.BCAST, () -> "MPI_Bcast of " + bytes + " bytes from rank " + root, choice);
        if (c.size() == 1) {
            return c.plan().start();
        }
        String a = choice.algorithm().replace("hierarchical ", "");
        Trees.Shape shape = a.equals("pipeline") ? Trees.Shape.CHAIN : Trees.Shape.BINOMIAL;
        Trees.Tree tree = c.tree(shape, c.hierarchical(), root);
        boolean whole = a.equals("binomial");
        if (blocking && whole && c.direct(data.bytes())) {
            along(c.direct(), tree, data);
            return Collectives.DONE;
        }
        Plan plan = c.plan();
        along(plan, tree, data, whole ? count : Math.max(1, c.tuning().segment() / Math.max(1, map.size())));
        return plan.start();
    }

    /** {@link #along(Plan, Trees.Tree, Region, long)} of the whole message, run now for a blocking call. */
    static void along(Direct d, Trees.Tree tree, Region data) {
        try {
            if (tree.parent() >= 0) {
                d.receive(tree.parent(), data);
            }
            int[] children = tree.children();
            for (int i = children.length - 1; i >= 0; i--) {
                d.send(children[i], data);
            }
        } catch (RuntimeException e) {
            throw Direct.failed(e);
        }
    }

    private static Choice choose(Collectives c, long bytes) {
        String prefix = c.hierarchical() ? "hierarchical " : "";
        String where = c.hierarchical() ? "; leaders of " + c.placement().hosts() + " hosts first" : "";
        String forced = c.tuning().forced(Collective.BCAST);
        if (forced != null) {
            return new Choice("MPI_Bcast", prefix + forced, () -> Tuning.PREFIX + "bcast=" + forced + where);
        }
        if (bytes <= WHOLE_LIMIT || c.size() <= 2) {
            return new Choice("MPI_Bcast", prefix + "binomial", () -> (bytes <= WHOLE_LIMIT ? bytes + " bytes <= "
                + WHOLE_LIMIT + ": fewest steps" : c.size() + " ranks: nothing to pipeline") + where);
        }
        String tree = treeNotChain(c);
        if (tree == null) {
            return new Choice("MPI_Bcast", prefix + "pipeline", () -> bytes + " bytes > " + WHOLE_LIMIT + " to "
                + c.size() + " <= " + CHAIN_RANKS + " ranks: segments of " + c.tuning().segment() + " bytes overlap "
                + "down a chain" + where);
        }
        return new Choice("MPI_Bcast", prefix + "segmented-binomial", () -> bytes + " bytes > " + WHOLE_LIMIT + " to "
            + tree + ": segments of " + c.tuning().segment() + " bytes down a binomial tree" + where);
    }

    /**
     * Whether segments go along a binomial tree rather than a chain, for a broadcast or a reduce: a
     * chain has a hop per rank, and keeps every rank copying at once, which ranks that take turns on
     * their host's cores cannot do (docs/performance-notes.md#crowded-bcast).
     *
     * @return why a tree, in words that follow "to" or "from"; {@code null} for a chain
     */
    static String treeNotChain(Collectives c) {
        if (c.size() > CHAIN_RANKS) {
            return c.size() + " > " + CHAIN_RANKS + " ranks";
        }
        return c.placement().crowded() ? "ranks that outnumber their host's cores" : null;
    }

    /**
     * Adds the steps that pass {@code data} down {@code tree} in segments of {@code segment}
     * elements: each segment is received from the parent, then sent to each child, the children
     * with the larger subtrees first.
     *
     * @param after the step the root's data waits for, or {@link Plan#NONE}
     * @return the steps receiving each segment (at the root: {@code after})
     */
    static int[] along(Plan plan, Trees.Tree tree, Region data, long segment, int after) {
        long count = data.count();
        int segments = count == 0 ? 1 : (int) ((count + segment - 1) / segment);
        int[] have = new int[segments];
        int[] children = tree.children();
        for (int s = 0; s < segments; s++) {
            long first = s * segment;
            Region part = data.slice(first, Math.min(segment, count - first));
            have[s] = tree.parent() >= 0 ? plan.receive(tree.parent(), part) : after;
            for (int i = children.length - 1; i >= 0; i--) {
                if (segments > 1) {
                    plan.sendSegment(children[i], part, have[s]);
                } else {
                    plan.send(children[i], part, have[s]);
                }
            }
        }
        return have;
    }

    static int[] along(Plan plan, Trees.Tree tree, Region data, long segment) {
        return along(plan, tree, data, segment, Plan.NONE);
    }
}
