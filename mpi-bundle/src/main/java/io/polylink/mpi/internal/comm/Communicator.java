package io.polylink.mpi.internal.comm;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.coll.Collectives;
import io.polylink.mpi.internal.coll.Placement;
import io.polylink.mpi.internal.coll.Tuning;
import io.polylink.mpi.internal.datatype.Memories;
import io.polylink.mpi.internal.datatype.Memory;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.p2p.BufferedSends;
import io.polylink.mpi.internal.p2p.LinkHints;
import io.polylink.mpi.internal.p2p.PointToPoint;
import io.polylink.mpi.internal.p2p.RankMap;
import io.polylink.mpi.internal.p2p.Unexpected;
import io.polylink.mpi.internal.request.Completed;
import io.polylink.mpi.internal.request.Operation;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An intra-communicator: an ordered group of the job's ranks, this rank's place in it, and a
 * context id its messages carry. Checks every argument before anything is sent, so a bad rank,
 * tag, count or buffer is an {@link MpiError} on the calling thread. Thread-safe.
 */
public final class Communicator implements RankMap {

    /** {@code MPI.ANY_SOURCE} and {@code MPI.ANY_TAG}. */
    public static final int ANY = PointToPoint.ANY;
    /** {@code MPI.TAG_UB}'s value: the largest tag. */
    public static final int TAG_UB = Integer.MAX_VALUE;

    private final World world;
    private final View view;
    private final int context;
    private final Cartesian cartesian;
    private final Attributes attributes;
    private final boolean predefined;
    private volatile ErrorMode errors;
    private volatile Map<String, String> info;
    private volatile LinkHints links = LinkHints.NONE;
    private volatile String name;
    private volatile boolean freed;
    private volatile Collectives collectives;

    private Communicator(World world, int[] members, int context, Cartesian cartesian, ErrorMode errors,
                         Attributes attributes, Map<String, String> info, String name, boolean predefined) {
        this.world = world;
        this.view = new View(members, world.size(), world.rank());
        this.context = context;
        this.cartesian = cartesian;
        this.errors = errors;
        this.attributes = attributes;
        this.info = info;
        this.name = name;
        this.predefined = predefined;
    }

    /** @return {@code MPI_COMM_WORLD}: every rank of the job, errors fatal */
    public static Communicator world(World world) {
        int[] all = new int[world.size()];
        Arrays.setAll(all, i -> i);
        return new Communicator(world, all, ContextIds.WORLD, null, ErrorMode.FATAL, new Attributes(), Map.of(),
            "MPI_COMM_WORLD", true);
    }

    /** @return {@code MPI_COMM_SELF}: this rank alone, errors fatal */
    public static Communicator self(World world) {
        return new Communicator(world, new int[] {world.rank()}, ContextIds.SELF, null, ErrorMode.FATAL,
            new Attributes(), Map.of(), "MPI_COMM_SELF", true);
    }

    /**
     * @return a communicator of {@code members} with context {@code id}, this one's error mode,
     *     copies of its attributes and its hints, links included
     */
    Communicator derived(int[] members, int id, Cartesian topology) {
        Communicator c = new Communicator(world, members, id, topology, errors, attributes.copy(), info, "", false);
        if (!links.none()) {
            world.p2p().links(id, links, members, false); // nothing went by the new context yet
            c.links = links;
        }
        return c;
    }

    View view() {
        return view;
    }

    /** @return the context id of this communicator's collective traffic */
    int collectiveContext() {
        return context + 1;
    }

    public int rank() {
        return view.me();
    }

    public int size() {
        return view.size();
    }

    /** @return the job's ranks, by rank here */
    public int[] members() {
        return view.members();
    }

    @Override
    public int rankOf(int worldRank) {
        return view.rankOf(worldRank);
    }

    @Override
    public int worldRank(int rank) {
        return view.worldRank(rank);
    }

    public World world() {
        return world;
    }

    /** @return the Cartesian topology, or {@code null} */
    public Cartesian cartesian() {
        return cartesian;
    }

    /** @throws MpiError {@code ERR_TOPOLOGY} if this is not a Cartesian communicator */
    public Cartesian requireCartesian() {
        checkLive();
        if (cartesian == null) {
            throw new MpiError(ErrorClass.ERR_TOPOLOGY, describe() + " has no Cartesian topology");
        }
        return cartesian;
    }

    /** @throws MpiError {@code ERR_COMM} if the communicator was freed */
    public void checkLive() {
        if (freed) {
            throw new MpiError(ErrorClass.ERR_COMM, "the communicator " + describe() + " was freed");
        }
    }

    private void checkRank(int r, String role, boolean any) {
        if (r == Groups.PROC_NULL || (any && r == ANY) || (r >= 0 && r < size())) {
            return;
        }
        throw new MpiError(ErrorClass.ERR_RANK, role + " rank " + r + " is not in " + describe() + " of " + size()
            + " ranks (0 to " + (size() - 1) + (any ? ", MPI.ANY_SOURCE" : "") + " or MPI.PROC_NULL)");
    }

    static void checkTag(int tag, boolean any) {
        if (tag >= 0 || (any && tag == ANY)) {
            return;
        }
        throw new MpiError(ErrorClass.ERR_TAG, "tag " + tag + " is not valid: tags are 0 to MPI.TAG_UB ("
            + TAG_UB + ")" + (any ? " or MPI.ANY_TAG" : ""));
    }

    private static void checkCount(int count) {
        if (count < 0) {
            throw new MpiError(ErrorClass.ERR_COUNT, "count " + count + " is negative");
        }
    }

    /**
     * Checks a send's arguments.
     *
     * @return the send buffer's memory
     * @throws MpiError naming the argument that is wrong
     */
    public Memory checkSend(Object buffer, int count, Typemap map, int dest, int tag) {
        checkLive();
        checkCount(count);
        checkRank(dest, "destination", false);
        checkTag(tag, false);
        Memory memory = Memories.of(buffer, false);
        Memories.check(memory, map, count, "the send buffer");
        return memory;
    }

    /**
     * Starts a send of {@code count} elements of {@code map} from {@code buffer}.
     *
     * @param synchronous whether it completes only once a receive matched it
     * @return the send; complete at once for {@code PROC_NULL}
     */
    public Operation send(Object buffer, int count, Typemap map, int dest, int tag, boolean synchronous) {
        Memory memory = checkSend(buffer, count, map, dest, tag);
        if (dest == Groups.PROC_NULL) {
            return new Completed(rank(), tag, 0, null);
        }
        return world.p2p().send(context, view.worldRank(dest), rank(), tag, memory, map, count, synchronous);
    }

    /** Packs the message into {@code attached} and starts sending the copy: {@code MPI_Bsend}. */
    public Operation bufferedSend(Object buffer, int count, Typemap map, int dest, int tag, BufferedSends attached) {
        Memory memory = checkSend(buffer, count, map, dest, tag);
        if (dest == Groups.PROC_NULL) {
            return new Completed(rank(), tag, 0, null);
        }
        return attached.send(world.p2p(), context, view.worldRank(dest), rank(), tag, memory, map, count);
    }

    /**
     * Checks a receive's arguments.
     *
     * @return the receive buffer's memory
     * @throws MpiError naming the argument that is wrong
     */
    public Memory checkReceive(Object buffer, int count, Typemap map, int source, int tag) {
        checkLive();
        checkCount(count);
        checkRank(source, "source", true);
        checkTag(tag, true);
        Memory memory = Memories.of(buffer, true);
        Memories.check(memory, map, count, "the receive buffer");
        return memory;
    }

    /** Starts a receive of at most {@code count} elements of {@code map} into {@code buffer}. */
    public Operation receive(Object buffer, int count, Typemap map, int source, int tag) {
        Memory memory = checkReceive(buffer, count, map, source, tag);
        if (source == Groups.PROC_NULL) {
            return new Completed(Groups.PROC_NULL, ANY, 0, null);
        }
        return world.p2p().receive(context, worldOrAny(source), tag, memory, map, count, view);
    }

    private int worldOrAny(int source) {
        return source == ANY ? PointToPoint.ANY : view.worldRank(source);
    }

    /** What a probe found: the status of the message a receive would match. */
    public record Probed(int source, int tag, long bytes) {}

    /**
     * @param block whether to wait for a message
     * @return the message a receive with these arguments would match now, or {@code null} if there
     *     is none and {@code block} is false; {@code PROC_NULL} finds an empty message at once
     */
    public Probed probe(int source, int tag, boolean block) {
        checkLive();
        checkRank(source, "source", true);
        checkTag(tag, true);
        if (source == Groups.PROC_NULL) {
            return new Probed(Groups.PROC_NULL, ANY, 0);
        }
        Unexpected u = world.p2p().probe(context, worldOrAny(source), tag, block, view);
        return u == null ? null : new Probed(view.rankOf(u.sourceWorldRank()), u.tag(), u.length());
    }

    /** A message taken by a matched probe, which only {@link #receive(Claimed, Object, int, Typemap)} receives. */
    public record Claimed(Communicator communicator, Unexpected message, Probed status) {}

    /**
     * {@code MPI_Mprobe} and {@code MPI_Improbe}.
     *
     * @return the message, or {@code null} if none is there and {@code block} is false;
     *     {@code PROC_NULL} gives a claim of no message
     */
    public Claimed claim(int source, int tag, boolean block) {
        checkLive();
        checkRank(source, "source", true);
        checkTag(tag, true);
        if (source == Groups.PROC_NULL) {
            return new Claimed(this, null, new Probed(Groups.PROC_NULL, ANY, 0));
        }
        Unexpected u = world.p2p().claim(context, worldOrAny(source), tag, block, view);
        return u == null ? null
            : new Claimed(this, u, new Probed(view.rankOf(u.sourceWorldRank()), u.tag(), u.length()));
    }

    /** Receives a claimed message ({@code MPI_Mrecv}); a claim of no message completes at once. */
    public static Operation receive(Claimed claimed, Object buffer, int count, Typemap map) {
        checkCount(count);
        Memory memory = Memories.of(buffer, true);
        Memories.check(memory, map, count, "the receive buffer");
        if (claimed.message() == null) {
            return new Completed(Groups.PROC_NULL, ANY, 0, null);
        }
        Communicator c = claimed.communicator();
        return c.world.p2p().receive(claimed.message(), memory, map, count, c.view);
    }

    /**
     * @return the communicator's collectives, on its collective context id
     * @throws MpiError {@code ERR_COMM} if the communicator was freed
     */
    public Collectives collectives() {
        checkLive();
        Collectives made = collectives;
        return made != null ? made : makeCollectives();
    }

    /**
     * @return what this communicator's links cost by the job's link models, over the stack its
     *     hints pin or the stacks the job's links take; {@code null} without a model of the links
     *     between sites
     */
    private io.polylink.mpi.internal.coll.WideAreaCost wideAreaCost() {
        String pinned = links.stack();
        var wide = world.model(io.polylink.spi.PeerLocation.OTHER_SITE, pinned);
        var site = world.model(io.polylink.spi.PeerLocation.SAME_SITE, pinned);
        var host = world.model(io.polylink.spi.PeerLocation.SAME_HOST, pinned);
        return wide.isEmpty() ? null
            : new io.polylink.mpi.internal.coll.WideAreaCost(wide.get(), site.orElse(null), host.orElse(null),
                world.limits().eagerLimit());
    }

    /** Makes the collectives once, at the first call: every collective asks, and takes no lock after. */
    private synchronized Collectives makeCollectives() {
        if (collectives == null) {
            collectives = new Collectives(world.p2p(), collectiveContext(), view, rank(), size(),
                Placement.of(world.hosts(), world.sites(), world.crowded(), view.members()), Tuning.of(info), this::describe,
                world.explain(), this::wideAreaCost);
        }
        return collectives;
    }

    /**
     * @return for each dimension of the Cartesian topology, the rank one below and the rank one
     *     above ({@code PROC_NULL} past an edge that does not wrap): the neighbours of the
     *     neighbourhood collectives
     * @throws MpiError {@code ERR_TOPOLOGY} if the communicator has no Cartesian topology
     */
    public int[] neighbours() {
        Cartesian grid = requireCartesian();
        int[] out = new int[2 * grid.dims().length];
        for (int d = 0; d < grid.dims().length; d++) {
            int[] shift = grid.shift(rank(), d, 1);
            out[2 * d] = shift[0];
            out[2 * d + 1] = shift[1];
        }
        return out;
    }

    /**
     * @return {@link Groups#IDENT} for the same communicator, {@link Groups#CONGRUENT} for the same
     *     ranks in the same order, {@link Groups#SIMILAR} for the same ranks, else {@link Groups#UNEQUAL}
     */
    public static int compare(Communicator a, Communicator b) {
        if (a == b) {
            return Groups.IDENT;
        }
        int g = Groups.compare(a.view.members(), b.view.members());
        return g == Groups.IDENT ? Groups.CONGRUENT : g;
    }

    /** @throws MpiError {@code ERR_COMM} for {@code COMM_WORLD} and {@code COMM_SELF} */
    public void free() {
        checkLive();
        if (predefined) {
            throw new MpiError(ErrorClass.ERR_COMM, describe() + " is predefined and cannot be freed");
        }
        freed = true;
        if (!links.none()) {
            world.p2p().links(context, LinkHints.NONE, view.members(), false);
        }
    }

    public boolean predefined() {
        return predefined;
    }

    public ErrorMode errors() {
        return errors;
    }

    public void errors(ErrorMode mode) {
        checkLive();
        errors = mode;
    }

    public Attributes attributes() {
        checkLive();
        return attributes;
    }

    /**
     * @return the hints; under {@value LinkHints#STACKS} the stack that reaches each rank from
     *     this one, and under {@value LinkHints#LOCATIONS} how far each rank runs from this one, in
     *     rank order
     */
    public Map<String, String> info() {
        checkLive();
        Map<String, String> all = new LinkedHashMap<>(info);
        all.put(LinkHints.STACKS, String.join(",", world.p2p().stacks(context, view.members())));
        all.put(LinkHints.LOCATIONS, String.join(",", world.locations(world.rank(), view.members())));
        Map<String, String> chosen = collectives().choices();
        if (!chosen.isEmpty()) {
            all.put(Tuning.CHOICES, String.join("; ", chosen.entrySet().stream()
                .map(e -> e.getKey() + ": " + e.getValue()).toList()));
        }
        return java.util.Collections.unmodifiableMap(all);
    }

    /**
     * Replaces the hints. Those about links ({@link LinkHints}) take effect at once: every member
     * first confirms it has what this rank sent it by the old links, so that MPI's order holds.
     *
     * @throws MpiError {@code ERR_INFO_VALUE} if the link hints are not stacks, or leave no way to
     *     a member; the hints stay as they were
     */
    public void info(Map<String, String> hints) {
        checkLive();
        Map<String, String> copy = new LinkedHashMap<>(hints);
        copy.remove(LinkHints.STACKS);
        copy.remove(LinkHints.LOCATIONS);
        copy.remove(Tuning.CHOICES);
        LinkHints next = LinkHints.of(copy);
        Tuning tuning = Tuning.of(copy);
        synchronized (this) {
            if (!next.equals(links)) {
                world.p2p().links(context, next, view.members(), true);
                links = next;
            }
            info = java.util.Collections.unmodifiableMap(copy);
            collectives().tuning(tuning);
        }
    }

    public String name() {
        checkLive();
        return name;
    }

    public void name(String newName) {
        checkLive();
        name = newName;
    }

    /** @return the communicator as errors name it */
    public String describe() {
        return name.isEmpty() ? "communicator " + context / 2 : name;
    }
}
