package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Direct;
import io.polylink.mpi.internal.coll.schedule.Plan;
import io.polylink.mpi.internal.p2p.PointToPoint;
import io.polylink.mpi.internal.p2p.RankMap;
import io.polylink.mpi.internal.request.Completed;
import io.polylink.mpi.internal.request.Operation;
import java.io.PrintStream;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The collectives of one communicator at this rank: where its ranks run, what its info says about
 * algorithms, the number of the next collective call (the same at every rank, since every rank
 * calls a communicator's collectives in the same order), and which algorithm each collective took
 * last. Each collective's class ({@link Broadcast}, {@link AllReduce}, ...) checks its
 * arguments, chooses its algorithm here and plans its steps. Thread-safe.
 *
 * <p>A choice is logged at {@code FINE} on logger {@value #LOGGER}; with
 * {@code POLYLINK_MPI_EXPLAIN} the communicator's rank 0 prints each algorithm a collective takes
 * the first time it takes it.
 */
public final class Collectives {

    public static final String LOGGER = "io.polylink.mpi.coll";

    private static final Logger LOG = Logger.getLogger(LOGGER);

    private final PointToPoint p2p;
    private final int context;
    private final RankMap ranks;
    private final int rank;
    private final int size;
    private final Placement placement;
    /** 0 to size - 1: the members of a collective among all ranks; never written. */
    private final int[] everyRank;
    private final Supplier<String> name;
    private final PrintStream explain;
    /** What the links of a communicator spanning sites cost, or {@code null} when the job has no model of them. */
    private final Supplier<WideAreaCost> wideAreaCost;
    private volatile Tuning tuning;
    private final AtomicInteger sequence = new AtomicInteger();
    /** The last call's choice of each collective, by its ordinal: every call stores one, so a plain array slot. */
    private final AtomicReferenceArray<Choice> last = new AtomicReferenceArray<>(Collective.values().length);
    /**
     * The last call's choice of each collective with what it was chosen for, by the collective's
     * ordinal: a call like it takes it again, with nothing to make. One object, so a reader sees a
     * choice with its own key, never another call's.
     */
    private final Memo[] memos = new Memo[Collective.values().length];
    private final Set<String> explained = ConcurrentHashMap.newKeySet();
    /** Where this communicator's ranks meet ({@link #area}), once made; {@code null} before, or if they could not make one. */
    private HostArea area;
    /** Broadcasts larger than a slot through the {@link #area}, made with it. */
    private SpreadBroadcast spreadBroadcast;
    /** Why the ranks have no {@link HostArea}, once they tried to make one and could not. */
    private String noArea;
    /** Trees by shape and hierarchy ({@link #tree}), each by its root; filled as calls need them. */
    private final Trees.Tree[][] trees = new Trees.Tree[Trees.Shape.values().length * 2][];

    /**
     * @param context the communicator's collective context id
     * @param ranks the communicator's ranks
     * @param rank this rank in the communicator
     * @param name the communicator's name, for log lines
     * @param explain where rank 0 prints its choices, or {@code null}
     * @param wideAreaCost what the links cost by the job's models, the same at every rank; {@code
     *     null} from it when the job has no model of the links between sites
     */
    public Collectives(PointToPoint p2p, int context, RankMap ranks, int rank, int size, Placement placement,
                       Tuning tuning, Supplier<String> name, PrintStream explain, Supplier<WideAreaCost> wideAreaCost) {
        this.p2p = p2p;
        this.context = context;
        this.ranks = ranks;
        this.rank = rank;
        this.size = size;
        this.placement = placement;
        this.everyRank = Reduce.all(size);
        this.tuning = tuning;
        this.name = name;
        this.explain = explain;
        this.wideAreaCost = wideAreaCost;
    }

    /** @return what the links cost by the job's models, or {@code null} without a model of the links between sites */
    WideAreaCost wideAreaCost() {
        return wideAreaCost.get();
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    public Placement placement() {
        return placement;
    }

    /** @return the ranks 0 to size - 1, shared: algorithms read it, none writes it */
    int[] everyRank() {
        return everyRank;
    }

    public Tuning tuning() {
        return tuning;
    }

    /** Takes new settings from the communicator's info. */
    public void tuning(Tuning t) {
        tuning = t;
    }

    /**
     * @return this rank's place in the tree of {@code shape} rooted at {@code root}, through the
     *     hosts' leaders if {@code hierarchical}: made once, then the same for every call. Callers
     *     only read it.
     */
    Trees.Tree tree(Trees.Shape shape, boolean hierarchical, int root) {
        int kind = shape.ordinal() * 2 + (hierarchical ? 1 : 0);
        Trees.Tree[] byRoot = trees[kind];
        if (byRoot == null) {
            byRoot = new Trees.Tree[size];
            trees[kind] = byRoot;
        }
        Trees.Tree tree = byRoot[root];
        if (tree == null) {
            // Racing callers each make the same tree: a record of final fields, safe to share.
            tree = hierarchical ? Trees.hierarchical(placement, shape, root, rank) : Trees.of(shape, everyRank, root, rank);
            byRoot[root] = tree;
        }
        return tree;
    }

    /** @return whether collectives go through one leader per host: the ranks span hosts, and the info allows it */
    boolean hierarchical() {
        return tuning.hierarchy() && placement.hosts() > 1;
    }

    /**
     * @return {@code auto}, led by why the info's {@value Collective#HIERARCHICAL} was not taken if
     *     it named it for {@code collective} (see {@link Collective#forced(Tuning)})
     */
    Choice unlessHierarchyOff(Collective collective, Choice auto) {
        return tuning.forced(collective) == null ? auto : auto.refusing(Tuning.PREFIX + collective.key() + "="
            + Collective.HIERARCHICAL + " refused: " + Tuning.HIERARCHY + "=false");
    }

    /** What a collective run {@linkplain Direct directly} returns: it is complete when it returns. */
    static final Operation DONE = new Completed(PointToPoint.ANY, PointToPoint.ANY, 0, null);

    /** @return the messaging engine under the collectives */
    PointToPoint p2p() {
        return p2p;
    }

    /** @return the plan of the next collective call */
    Plan plan() {
        return new Plan(p2p, context, ranks, rank, size, sequence.getAndIncrement());
    }

    /**
     * @return whether a blocking call whose messages hold at most {@code bytes} may run
     *     {@linkplain Direct directly}: each of its sends then completes as it is handed over
     */
    boolean direct(long bytes) {
        return bytes <= p2p.limits().eagerLimit();
    }

    /**
     * @return where a call of {@code collective} with at most {@code bytes} of data per rank meets:
     *     a blocking call of two ranks or more, all on one host, whose data fits a slot, unless the
     *     info names another algorithm. The area is made at the first call that asks, as a
     *     collective call of its own at every rank (each asks at the same call, as the answer is the
     *     same at every rank). {@code null} if the call does not meet, or the ranks could not make
     *     the area, which they then never try again ({@link #unlessMet} says why).
     */
    HostArea meeting(Collective collective, long bytes, boolean blocking) {
        String forced = tuning.forced(collective);
        if ((forced != null && !forced.equals(HostArea.ALGORITHM)) || !blocking || !fits(collective, bytes)
                || noArea != null) {
            return null;
        }
        if (area == null) {
            HostArea.Opened opened = HostArea.open(direct(), p2p, context, ranks, size, rank);
            area = opened.area();
            spreadBroadcast = area == null ? null : new SpreadBroadcast(area, p2p, ranks, rank);
            noArea = opened.refused();
            if (noArea != null) {
                LOG.fine(() -> name.get() + ": no memory shared by its ranks for small collectives: " + noArea);
            }
        }
        return area;
    }

    /** @return the broadcast through the area {@link #meeting} returned, for data larger than a slot */
    SpreadBroadcast spreadBroadcast() {
        return spreadBroadcast;
    }

    /**
     * @return whether a call of {@code collective} with {@code bytes} of data per rank could meet in
     *     a {@link HostArea} by where its ranks run and its size: a broadcast of any size, an
     *     allreduce that fits a slot or is larger than {@link SharedAllReduce#SMALLEST} and up to
     *     {@link SharedRingAllReduce#LARGEST}, other calls that fit a slot
     */
    private boolean fits(Collective collective, long bytes) {
        return size > 1 && placement.hosts() == 1 && !placement.spansSites() && sizeFits(collective, bytes);
    }

    private static boolean sizeFits(Collective collective, long bytes) {
        return bytes <= HostArea.SLOT || collective == Collective.BCAST || collective == Collective.ALLREDUCE
            && bytes > SharedAllReduce.SMALLEST && bytes <= SharedRingAllReduce.LARGEST;
    }

    /**
     * @return {@code choice}, for a call that did not meet in a {@link HostArea}, led by why not if
     *     the info named {@code shared-memory} for it or the ranks could not make one: a call that
     *     would have met otherwise says why it did not
     */
    Choice unlessMet(Collective collective, Choice choice, long bytes, boolean blocking) {
        String forced = tuning.forced(collective);
        boolean named = HostArea.ALGORITHM.equals(forced);
        boolean couldHave = forced == null && noArea != null && blocking && fits(collective, bytes);
        return !named && !couldHave ? choice : choice.refusing((named ? Tuning.PREFIX + collective.key() + "="
            + forced : HostArea.ALGORITHM) + " refused: " + notMeeting(collective, bytes, blocking));
    }

    /** @return why a call with {@code bytes} of data per rank does not meet in a {@link HostArea} */
    private String notMeeting(Collective collective, long bytes, boolean blocking) {
        return !blocking ? "a non-blocking call" : size < 2 ? "one rank"
            : placement.hosts() > 1 ? "ranks on " + placement.hosts() + " hosts"
            : placement.spansSites() ? "ranks at " + placement.sites() + " sites"
            : !sizeFits(collective, bytes) ? bytes + " bytes > " + HostArea.SLOT
                + (collective == Collective.ALLREDUCE ? " and not over " + SharedAllReduce.SMALLEST + " and up to "
                    + SharedRingAllReduce.LARGEST : "")
            : noArea != null ? "no memory shared by the ranks: " + noArea
            : "the reduction does not split into blocks the kernels combine where they lie (a user's operation, "
                + "pairs, a derived type, fewer elements than ranks)";
    }

    /** @return the next collective call, run directly */
    Direct direct() {
        return new Direct(p2p, context, ranks, rank, size, sequence.getAndIncrement());
    }

    /**
     * Records the algorithm a call takes.
     *
     * @param call the call, e.g. {@code MPI_Bcast of 8 bytes from rank 0}, put into words only if
     *     logged or explained
     */
    void chose(Collective collective, Supplier<String> call, Choice choice) {
        int slot = collective.ordinal();
        if (last.get(slot) != choice) {
            // Not stored when it is the same: a store into this long-lived array costs a fence in
            // the collector's write barrier, on every call.
            last.lazySet(slot, choice);
        }
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(name.get() + " (" + placement.describe() + "): " + call.get() + " by " + choice.algorithm() + ": "
                + choice.reason());
        }
        if (explain != null && rank == 0 && explained.add(collective.key() + " " + choice.algorithm())) {
            explain.println("polylink mpi: " + name.get() + ": " + call.get() + " by " + choice.algorithm() + " ("
                + choice.reason() + ")");
        }
    }

    /**
     * @param bytes what the choice depends on beside the communicator and its tuning: the call's
     *     size, and for some collectives its count and whether its operation splits
     * @return the choice of the collective's last call if that call was chosen for the same, under
     *     the same tuning; else {@code null}, and the caller chooses and {@linkplain #remember remembers}
     */
    Choice remembered(Collective collective, long bytes, long count, boolean splits) {
        Memo m = memos[collective.ordinal()];
        return m != null && m.tuning == tuning && m.bytes == bytes && m.count == count && m.splits == splits
            ? m.choice : null;
    }

    /** @return {@code choice}, remembered for calls like this one (see {@link #remembered}) */
    Choice remember(Collective collective, long bytes, long count, boolean splits, Choice choice) {
        memos[collective.ordinal()] = new Memo(tuning, bytes, count, splits, choice);
        return choice;
    }

    private record Memo(Tuning tuning, long bytes, long count, boolean splits, Choice choice) {}

    /** @return the algorithm the last call of each collective took, and why, by the collective's key */
    public Map<String, String> choices() {
        Map<String, String> out = new TreeMap<>();
        for (Collective collective : Collective.values()) {
            Choice c = last.get(collective.ordinal());
            if (c != null) {
                out.put(collective.key(), c.toString());
            }
        }
        return out;
    }
}
