package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Direct;
import io.polylink.mpi.internal.coll.schedule.Plan;
import io.polylink.mpi.internal.datatype.Kind;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.request.Operation;
import java.util.function.IntUnaryOperator;

/**
 * {@code MPI_Barrier}. On one host, among three ranks or more, a tree barrier: arrivals go up a
 * binomial tree to rank 0, which then releases the ranks down the same tree, so rank 0 leaves
 * first and a call rooted there right after the barrier (a broadcast, a scatter) finds its root
 * ahead of the others rather than behind them. Between two ranks, and among the leaders of
 * several hosts, a dissemination barrier (Hensgen, Finkel and Manber): in round {@code k} each
 * rank tells the rank {@code 2^k} above it that it arrived and waits to hear from the rank
 * {@code 2^k} below; after {@code ceil(log2 n)} rounds every rank has heard, directly or not,
 * from all. Over several hosts each host's ranks first tell their leader, up a binomial tree;
 * the leaders run the dissemination among themselves; then each leader tells its host's ranks.
 * A blocking barrier of ranks on one host meets in a {@link HostArea} instead: each counts itself
 * in, rank 0 waits for the count and lets the others out, still leaving first.
 */
public final class Barrier {

    static final String TREE = "tree";
    static final String DISSEMINATION = "dissemination";

    /** A message of no data. */
    static final Region NOTHING = new Region(null, Typemap.basic(Kind.BYTE), 0);

    private Barrier() {}

    /** Starts a barrier; it completes once every rank of the communicator started one. */
    public static Operation start(Collectives c, boolean blocking) {
        HostArea area = c.meeting(Collective.BARRIER, 0, blocking);
        if (area != null) {
            c.chose(Collective.BARRIER, () -> "MPI_Barrier", new Choice("MPI_Barrier", HostArea.ALGORITHM,
                () -> c.size() + " ranks on one host: each counts itself in, in memory the ranks share; rank 0 "
                    + "leaves once all have, and lets the others out"));
            area.meetRootFirst();
            area.finish();
            return Collectives.DONE;
        }
        String forced = c.tuning().forced(Collective.BARRIER);
        boolean hierarchical = c.hierarchical();
        boolean tree = !hierarchical && (TREE.equals(forced) || !DISSEMINATION.equals(forced) && c.size() > 2);
        Choice choice = hierarchical
            ? new Choice("MPI_Barrier", "hierarchical dissemination", () -> "ranks on " + c.placement().hosts()
                + " hosts: each host's ranks meet at their leader, the leaders by dissemination")
            : forced != null && !forced.equals(HostArea.ALGORITHM)
                ? new Choice("MPI_Barrier", forced, () -> Tuning.PREFIX + "barrier=" + forced)
            : tree ? new Choice("MPI_Barrier", TREE, () -> c.size() + " ranks on one host"
                + (c.placement().hosts() > 1 ? " or " + Tuning.HIERARCHY + "=false" : "")
                + ": up a binomial tree to rank 0 and down again, rank 0 first out")
            : new Choice("MPI_Barrier", DISSEMINATION, () -> c.size() + " ranks: one exchange");
        c.chose(Collective.BARRIER, () -> "MPI_Barrier", c.unlessMet(Collective.BARRIER, choice, 0, blocking));
        if (blocking && !hierarchical && c.size() > 1) {
            if (tree) {
                tree(c.direct(), c.tree(Trees.Shape.BINOMIAL, false, 0));
            } else {
                dissemination(c.direct(), c.size(), c.rank());
            }
            return Collectives.DONE;
        }
        Plan plan = c.plan();
        if (hierarchical) {
            hierarchical(plan, c.placement());
        } else if (tree) {
            tree(plan, c.tree(Trees.Shape.BINOMIAL, false, 0));
        } else if (c.size() > 1) {
            dissemination(plan, c.everyRank(), c.rank(), Plan.NONE);
        }
        return plan.start();
    }

    /**
     * Adds a dissemination barrier among {@code members} (ranks of the communicator).
     *
     * @param me this rank's index in {@code members}
     * @param after the step this rank's arrival waits for
     * @return the step after which every member arrived
     */
    static int dissemination(Plan plan, int[] members, int me, int after) {
        int n = members.length;
        int heard = after;
        for (int distance = 1; distance < n; distance <<= 1) {
            plan.send(members[(me + distance) % n], NOTHING, heard);
            heard = plan.receive(members[Math.floorMod(me - distance, n)], NOTHING, heard);
        }
        return heard;
    }

    /** {@link #dissemination(Plan, int[], int, int)} among all {@code n} ranks, run now for a blocking call. */
    private static void dissemination(Direct d, int n, int me) {
        try {
            for (int distance = 1; distance < n; distance <<= 1) {
                d.exchange((me + distance) % n, NOTHING, Math.floorMod(me - distance, n), NOTHING);
            }
        } catch (RuntimeException e) {
            throw Direct.failed(e);
        }
    }

    /** A tree barrier: this rank's children arrive, it tells its parent, its parent releases it, it releases its children. */
    private static void tree(Plan plan, Trees.Tree tree) {
        tree(plan, tree, all -> all);
    }

    /**
     * {@link #tree(Plan, Trees.Tree)}, where the root, once every rank below it arrived, adds the
     * steps {@code atTop} makes after the given one and releases its children after those. The
     * release is a broadcast of nothing down the tree.
     */
    private static void tree(Plan plan, Trees.Tree tree, IntUnaryOperator atTop) {
        int[] arrived = new int[tree.children().length];
        for (int i = 0; i < arrived.length; i++) {
            arrived[i] = plan.receive(tree.children()[i], NOTHING);
        }
        int all = plan.join(arrived);
        int top = all;
        if (tree.parent() >= 0) {
            plan.send(tree.parent(), NOTHING, all);
        } else {
            top = atTop.applyAsInt(all);
        }
        Broadcast.along(plan, tree, NOTHING, 1, top);
    }

    /** {@link #tree(Plan, Trees.Tree)}, run now for a blocking call. */
    private static void tree(Direct d, Trees.Tree tree) {
        try {
            for (int child : tree.children()) {
                d.receive(child, NOTHING);
            }
            if (tree.parent() >= 0) {
                d.send(tree.parent(), NOTHING);
            }
        } catch (RuntimeException e) {
            throw Direct.failed(e);
        }
        Broadcast.along(d, tree, NOTHING);
    }

    /** Each host's ranks meet at their leader up a tree, the leaders by dissemination, and the release comes back down. */
    private static void hierarchical(Plan plan, Placement placement) {
        int me = plan.rank();
        int host = placement.hostOf(me);
        int[] local = placement.ranksOn(host);
        tree(plan, Trees.binomial(local, 0, Trees.indexOf(local, me)),
            all -> dissemination(plan, placement.leaders(0), host, all));
    }
}
