package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Direct;
import io.polylink.mpi.internal.coll.schedule.Plan;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.p2p.PointToPoint;
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
 *   <li>{@code linear}: the whole message from the root to every other rank: from a buffer the
 *       host's ranks share, every rank reads it where it lies at once, with no hop between ranks
 *       that wait for a core; for a message too large to copy into the rings and small enough to go
 *       whole, among a few ranks of one host.
 *   <li>{@code shared-memory}: ranks of one host, in a blocking call: up to {@link HostArea#SLOT}
 *       bytes the root puts the data in its slot of a {@link HostArea}, the others copy it out;
 *       a larger message the others read where the root's shared buffer holds it, or from a
 *       bounce buffer the root packs it into as they read ({@link SpreadBroadcast}).
 * </ul>
 *
 * Over several hosts the tree is hierarchical: leaders first, then each host from its leader
 * (segments pass on within a host while later ones still cross between hosts).
 *
 * <p>Over several sites a broadcast is MagPIe's, along {@link SiteTrees}: a coordinator per site,
 * and every message across sites sent once.
 *
 * <ul>
 *   <li>{@code magpie}: the whole message from the root to each other site's coordinator, one
 *       after the other, then down a binomial tree in each site: MagPIe's original, for a job
 *       without link models.
 *   <li>{@code magpie-pipelined}: the message in segments down a tree across the coordinators and
 *       a tree in each site, segments crossing sites while earlier ones spread within them; the
 *       segment size and both trees' degrees are those the job's link models (docs/plogp.md)
 *       estimate fastest, found by MagPIe's heuristic ({@link WideAreaCost#heuristic}).
 * </ul>
 */
public final class Broadcast {

    /** The whole message from the root to every other rank. */
    static final String LINEAR = "linear";
    /** MagPIe's original wide-area broadcast. */
    static final String MAGPIE = "magpie";
    /** MagPIe's two-layer broadcast in segments, shaped by link models. */
    static final String MAGPIE_PIPELINED = "magpie-pipelined";

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
        HostArea area = c.meeting(Collective.BCAST, bytes, blocking);
        if (area != null && bytes <= HostArea.SLOT) {
            c.chose(Collective.BCAST, () -> "MPI_Bcast of " + bytes + " bytes from rank " + root,
                new Choice("MPI_Bcast", HostArea.ALGORITHM, () -> c.size() + " ranks on one host, " + bytes
                    + " bytes <= " + HostArea.SLOT + ": the root puts the data in memory the ranks share, and "
                    + "the others take it from there"));
            area.broadcast(root, data);
            return Collectives.DONE;
        }
        String unshared = area == null ? null : c.spreadBroadcast().run(c.direct(), root, data);
        if (area != null && unshared == null) {
            c.chose(Collective.BCAST, () -> "MPI_Bcast of " + bytes + " bytes from rank " + root,
                new Choice("MPI_Bcast", HostArea.ALGORITHM, () -> c.size() + " ranks on one host, " + bytes
                    + " bytes > " + HostArea.SLOT + ": the others read the root's data where it lies in a buffer the "
                    + "ranks share, or in one the root packs it into as they read, side by side"));
            return Collectives.DONE;
        }
        // Across sites the trees start at the root's site: a choice holds for its root only.
        long rootKey = c.placement().spansSites() ? root : 0;
        Choice choice = c.remembered(Collective.BCAST, bytes, rootKey, false);
        if (choice == null) {
            choice = c.remember(Collective.BCAST, bytes, rootKey, false, choose(c, bytes, root, map.size()));
        }
        Choice taken = unshared != null ? choice.refusing(unshared)
            : c.unlessMet(Collective.BCAST, choice, bytes, blocking);
        c.chose(Collective.BCAST, () -> "MPI_Bcast of " + bytes + " bytes from rank " + root, taken);
        if (c.size() == 1) {
            return c.plan().start();
        }
        if (choice.shape() != null) {
            WideAreaCost.Shape shape = choice.shape();
            Trees.Tree mine = SiteTrees.of(c.placement(), root, shape.wide(), shape.local())[c.rank()];
            Plan plan = c.plan();
            along(plan, mine, data, Math.max(1, shape.segment() / Math.max(1, map.size())));
            return plan.start();
        }
        String a = choice.algorithm().replace("hierarchical ", "");
        Trees.Shape shape = a.equals("pipeline") ? Trees.Shape.CHAIN : a.equals(LINEAR) ? Trees.Shape.FLAT
            : Trees.Shape.BINOMIAL;
        Trees.Tree tree = c.tree(shape, c.hierarchical(), root);
        boolean whole = a.equals("binomial") || a.equals(LINEAR);
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
            d.sendByReference(tree.children(), data);
        } catch (RuntimeException e) {
            throw Direct.failed(e);
        }
    }

    private static Choice choose(Collectives c, long bytes, int root, long element) {
        String forcedHere = c.tuning().forced(Collective.BCAST);
        if (c.placement().spansSites() && (forcedHere == null || forcedHere.startsWith(MAGPIE))) {
            return acrossSites(c, bytes, root, element, forcedHere);
        }
        if (forcedHere != null && forcedHere.startsWith(MAGPIE)) {
            return choose(c, bytes).refusing(Tuning.PREFIX + "bcast=" + forcedHere + " refused: the ranks are not at several named sites");
        }
        return choose(c, bytes);
    }

    /** MagPIe's broadcast, shaped by the job's link models where it has them. */
    private static Choice acrossSites(Collectives c, long bytes, int root, long element, String forced) {
        Placement p = c.placement();
        WideAreaCost cost = MAGPIE.equals(forced) ? null : c.wideAreaCost();
        if (cost == null) {
            WideAreaCost.Shape whole = new WideAreaCost.Shape(Math.max(1, bytes), Math.max(1, p.sites() - 1),
                SiteTrees.BINOMIAL, Double.NaN); // no models, no estimate
            String why = MAGPIE.equals(forced) ? Tuning.PREFIX + "bcast=" + MAGPIE
                : (forced != null ? Tuning.PREFIX + "bcast=" + forced + " refused: " : "")
                    + "no link model of the links between sites (polylink plogp)";
            return new Choice("MPI_Bcast", MAGPIE, () -> why + "; " + p.describe() + ": the whole message from the root "
                + "to each other site's coordinator, then down a binomial tree in each site", whole);
        }
        WideAreaCost.Shape shape = cost.heuristic(p, root, bytes, element);
        return new Choice("MPI_Bcast", MAGPIE_PIPELINED, () -> (forced != null ? Tuning.PREFIX + "bcast=" + forced
            : p.describe()) + ": " + (shape.segment() >= bytes ? "the whole message" : "segments of " + shape.segment()
            + " bytes") + " down a tree of degree " + shape.wide() + " across sites and of degree " + shape.local()
            + " within them, " + String.format(java.util.Locale.ROOT, "%.0f", shape.micros()) + " us by the models of "
            + cost.wide().stack() + " between sites and " + (cost.host() != null ? cost.host().stack() + " within them"
            : cost.site() != null ? cost.site().stack() + " within them" : "none within them"), shape);
    }

    private static Choice choose(Collectives c, long bytes) {
        String prefix = c.hierarchical() ? "hierarchical " : "";
        String where = c.hierarchical() ? "; leaders of " + c.placement().hosts() + " hosts first" : "";
        String named = c.tuning().forced(Collective.BCAST);
        // MagPIe at one site, and shared memory where the ranks cannot meet: refused by the callers
        String forced = named != null && (named.startsWith(MAGPIE) || named.equals(HostArea.ALGORITHM)) ? null : named;
        if (forced != null) {
            return new Choice("MPI_Bcast", prefix + forced, () -> Tuning.PREFIX + "bcast=" + forced + where);
        }
        if (bytes > PointToPoint.LEND_ABOVE && bytes <= WHOLE_LIMIT && c.size() > 2 && c.size() <= CHAIN_RANKS
                && c.placement().hosts() == 1) {
            return new Choice("MPI_Bcast", LINEAR, () -> bytes + " bytes, over " + PointToPoint.LEND_ABOVE + " and <= "
                + WHOLE_LIMIT + ", to " + c.size() + " <= " + CHAIN_RANKS + " ranks of one host: from the root to "
                + "each, which read a shared buffer where it lies, side by side");
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
