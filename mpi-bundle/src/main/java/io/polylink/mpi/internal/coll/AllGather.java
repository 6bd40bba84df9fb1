package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Plan;
import io.polylink.mpi.internal.datatype.LocalCopy;
import io.polylink.mpi.internal.datatype.Memory;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.request.Operation;
import java.util.Arrays;

/**
 * {@code MPI_Allgather} and {@code MPI_Allgatherv}: every rank's block to every rank.
 *
 * <ul>
 *   <li>{@code recursive-doubling}: for a power-of-two number of ranks, in round {@code k} each
 *       rank swaps the {@code 2^k} blocks it has with the rank {@code 2^k} away: {@code log2 n}
 *       rounds, for small blocks.
 *   <li>{@code ring}: each rank passes the block it received last to the next rank: {@code n - 1}
 *       rounds, every link busy in each; for large blocks and any number of ranks. Always for
 *       {@code MPI_Allgatherv} on one host.
 *   <li>{@code hierarchical}: each host's ranks gather their blocks at its leader (the lowest
 *       rank), the leaders swap their hosts' blocks, packed in one message per pair of leaders,
 *       and each leader broadcasts the whole result down its host: between hosts one message per
 *       pair of hosts, each block crossing once to each other host. Chosen whenever the ranks
 *       span hosts, for {@code MPI_Allgatherv} too, whose blocks go down each host packed.
 * </ul>
 */
public final class AllGather {

    /** Up to this many bytes in all, a power-of-two number of ranks gathers by recursive doubling. */
    static final long DOUBLING_LIMIT = 64 * 1024;

    private AllGather() {}

    /**
     * Starts an allgather.
     *
     * @param recvbuf {@code size * recvcount} elements
     * @param inPlace whether this rank's block is in place in {@code recvbuf} already
     */
    public static Operation allGather(Collectives c, Object sendbuf, int sendcount, Typemap sendtype, Object recvbuf,
                                      int recvcount, Typemap recvtype, boolean inPlace) {
        int n = c.size();
        Region send = inPlace ? null : Arguments.buffer(sendbuf, sendcount, sendtype, false, "the send buffer");
        Arguments.count(recvcount, "the receive buffer");
        Region recv = Arguments.buffer(recvbuf, Math.multiplyExact(recvcount, n), recvtype, true, "the receive buffer");
        long total = recv.bytes();
        Choice choice = choose(c, total);
        c.chose(Collective.ALLGATHER, () -> "MPI_Allgather of " + total + " bytes", choice);
        Plan plan = c.plan();
        Region[] blocks = new Region[n];
        for (int i = 0; i < n; i++) {
            blocks[i] = recv.slice((long) i * recvcount, recvcount);
        }
        int own = send == null ? Plan.NONE : plan.local(() -> LocalCopy.copy(send, blocks[c.rank()]));
        if (choice.algorithm().equals("recursive-doubling")) {
            doubling(plan, (first, count) -> recv.slice((long) first * recvcount, (long) count * recvcount), own);
        } else if (choice.algorithm().equals(Collective.HIERARCHICAL)) {
            long block = recvtype.size() * recvcount;
            long perSegment = Math.max(1, c.tuning().segment() / Math.max(1, block));
            long[] bytes = new long[n];
            Arrays.fill(bytes, block);
            hierarchical(plan, c.placement(), blocks, bytes, recv, perSegment * Math.max(1, recvcount), own);
        } else {
            ring(plan, blocks, own);
        }
        return plan.start();
    }

    /**
     * Starts an allgather of blocks of different sizes ({@code MPI_Allgatherv}), by the ring or, over
     * several hosts, through their leaders.
     *
     * @param recvcounts elements from each rank
     * @param displs where each rank's block starts in {@code recvbuf}, in elements of {@code recvtype}
     */
    public static Operation allGatherv(Collectives c, Object sendbuf, int sendcount, Typemap sendtype,
                                       Object recvbuf, int[] recvcounts, int[] displs, Typemap recvtype,
                                       boolean inPlace) {
        int n = c.size();
        Region send = inPlace ? null : Arguments.buffer(sendbuf, sendcount, sendtype, false, "the send buffer");
        Arguments.counts(recvcounts, displs, n, "the receive buffer");
        Memory memory = Arguments.memory(recvbuf, true);
        Region[] blocks = new Region[n];
        for (int i = 0; i < n; i++) {
            blocks[i] = Arguments.part(memory, recvtype, displs[i], recvcounts[i], i, "the receive buffer");
        }
        Choice choice = chooseVarying(c);
        c.chose(Collective.ALLGATHER, () -> "MPI_Allgatherv", choice);
        Plan plan = c.plan();
        int own = send == null ? Plan.NONE : plan.local(() -> LocalCopy.copy(send, blocks[c.rank()]));
        if (choice.algorithm().equals(Collective.HIERARCHICAL)) {
            long[] bytes = new long[n];
            for (int i = 0; i < n; i++) {
                bytes[i] = blocks[i].bytes();
            }
            hierarchical(plan, c.placement(), blocks, bytes, null, c.tuning().segment(), own);
        } else {
            ring(plan, blocks, own);
        }
        return plan.start();
    }

    private static Choice chooseVarying(Collectives c) {
        String named = c.tuning().forced(Collective.ALLGATHER);
        String forced = Collective.ALLGATHER.forced(c.tuning());
        if (Collective.HIERARCHICAL.equals(forced)) {
            return new Choice("MPI_Allgatherv", forced, () -> Tuning.PREFIX + "allgather=" + forced);
        }
        if (named == null && c.hierarchical()) {
            return hosts(c, "MPI_Allgatherv");
        }
        Choice ring = new Choice("MPI_Allgatherv", "ring", () -> "blocks of different sizes go round the ring");
        if (forced == null) {
            return c.unlessHierarchyOff(Collective.ALLGATHER, ring);
        }
        return forced.equals("ring") ? new Choice("MPI_Allgatherv", "ring", () -> Tuning.PREFIX + "allgather=ring")
            : ring.refusing(Tuning.PREFIX + "allgather=" + forced + " refused");
    }

    private static Choice hosts(Collectives c, String function) {
        return new Choice(function, Collective.HIERARCHICAL, () -> "ranks on " + c.placement().hosts()
            + " hosts: each host gathers at its leader, the leaders swap their hosts' blocks, each broadcasts to its "
            + "host");
    }

    private static Choice choose(Collectives c, long total) {
        String forced = Collective.ALLGATHER.forced(c.tuning());
        boolean pof2 = Integer.bitCount(c.size()) == 1;
        if (forced != null && (pof2 || !forced.equals("recursive-doubling"))) {
            return new Choice("MPI_Allgather", forced, () -> Tuning.PREFIX + "allgather=" + forced);
        }
        if (forced != null) {
            return auto(c, total, false).refusing(Tuning.PREFIX + "allgather=" + forced + " needs a power of two ranks, "
                + "not " + c.size());
        }
        return c.unlessHierarchyOff(Collective.ALLGATHER, auto(c, total, pof2));
    }

    private static Choice auto(Collectives c, long total, boolean pof2) {
        if (c.hierarchical()) {
            return hosts(c, "MPI_Allgather");
        }
        if (pof2 && total <= DOUBLING_LIMIT) {
            return new Choice("MPI_Allgather", "recursive-doubling", () -> total + " bytes <= " + DOUBLING_LIMIT
                + " among a power of two ranks: fewest rounds");
        }
        return new Choice("MPI_Allgather", "ring", () -> pof2 ? total + " bytes > " + DOUBLING_LIMIT
            + ": every link busy in every round" : c.size() + " ranks is not a power of two");
    }

    /** The region of blocks {@code first} to {@code first + count - 1}, adjacent in the receive buffer. */
    @FunctionalInterface
    interface Blocks {
        Region of(int first, int count);
    }

    /** @param own the step that put this rank's block in place */
    private static void doubling(Plan plan, Blocks blocks, int own) {
        int me = plan.rank();
        int have = own;
        for (int distance = 1; distance < plan.size(); distance <<= 1) {
            int partner = me ^ distance;
            plan.send(partner, blocks.of(me & -distance, distance), have);
            have = plan.join(have, plan.receive(partner, blocks.of(partner & -distance, distance)));
        }
    }

    /**
     * Adds the ring: in round {@code k} each rank sends the block of the rank {@code k} below it to
     * the next rank and receives the block of the rank {@code k + 1} below it from the previous.
     *
     * @param own the step that put this rank's block in place
     */
    static void ring(Plan plan, Region[] blocks, int own) {
        int n = plan.size();
        int me = plan.rank();
        int right = (me + 1) % n;
        int left = (me - 1 + n) % n;
        int have = own;
        for (int k = 0; k < n - 1; k++) {
            plan.send(right, blocks[Math.floorMod(me - k, n)], have);
            have = plan.receive(left, blocks[Math.floorMod(me - k - 1, n)]);
        }
    }

    /**
     * Adds the hierarchical allgather; see the class comment.
     *
     * @param blocks where each rank's block goes in the receive buffer
     * @param bytes bytes of each rank's block
     * @param whole what a leader broadcasts down its host once it has every block: the receive
     *     buffer, when it holds the blocks in rank order, cut into segments of whole blocks so that
     *     ranks whose receive types differ cut it alike; or {@code null}: the blocks packed in rank
     *     order, which each rank unpacks
     * @param segment elements of {@code whole} (bytes of the packed blocks) per segment
     * @param own the step that put this rank's block in place
     */
    private static void hierarchical(Plan plan, Placement placement, Region[] blocks, long[] bytes, Region whole,
                                     long segment, int own) {
        int me = plan.rank();
        int[] leaders = placement.leaders(0);
        int host = placement.hostOf(me);
        int[] local = placement.ranksOn(host);
        Trees.Tree tree = Trees.binomial(local, 0, Trees.indexOf(local, me));
        Packed everything = whole == null && local.length > 1 ? new Packed(bytes) : null;
        Region down = everything == null ? whole : everything.all();
        if (leaders[host] != me) {
            plan.send(leaders[host], blocks[me], own);
            int[] have = Broadcast.along(plan, tree, down, segment);
            if (everything != null) {
                copy(plan, everything, blocks, Reduce.all(blocks.length), false, have);
            }
            return;
        }
        int[] arrived = new int[leaders.length];
        int[] gathered = new int[local.length];
        for (int j = 0; j < local.length; j++) {
            gathered[j] = local[j] == me ? own : plan.receive(local[j], blocks[local[j]]);
        }
        arrived[host] = plan.join(gathered);
        Packed ours = new Packed(sizes(bytes, local));
        int packed = copy(plan, ours, blocks, local, true, arrived[host]);
        for (int k = 1; k < leaders.length; k++) {
            int h = (host + k) % leaders.length;
            int[] members = placement.ranksOn(h);
            Packed theirs = new Packed(sizes(bytes, members));
            plan.send(leaders[h], ours.all(), packed);
            arrived[h] = copy(plan, theirs, blocks, members, false, plan.receive(leaders[h], theirs.all()));
        }
        int all = plan.join(arrived);
        if (down != null) {
            if (everything != null) {
                all = copy(plan, everything, blocks, Reduce.all(blocks.length), true, all);
            }
            Broadcast.along(plan, tree, down, segment, all);
        }
    }

    /** @return the bytes of the blocks of {@code ranks}, in their order */
    private static long[] sizes(long[] bytes, int[] ranks) {
        long[] out = new long[ranks.length];
        for (int j = 0; j < ranks.length; j++) {
            out[j] = bytes[ranks[j]];
        }
        return out;
    }

    /**
     * Adds the step that copies the blocks of {@code ranks} into {@code packed}, one after the
     * other ({@code pack}), or back out of it.
     */
    private static int copy(Plan plan, Packed packed, Region[] blocks, int[] ranks, boolean pack, int... after) {
        return plan.local(() -> {
            for (int j = 0; j < ranks.length; j++) {
                if (pack) {
                    LocalCopy.copy(blocks[ranks[j]], packed.block(j));
                } else {
                    LocalCopy.copy(packed.block(j), blocks[ranks[j]]);
                }
            }
        }, after);
    }
}
