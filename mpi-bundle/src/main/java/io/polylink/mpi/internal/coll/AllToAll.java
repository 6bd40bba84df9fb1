package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Plan;
import io.polylink.mpi.internal.datatype.LocalCopy;
import io.polylink.mpi.internal.datatype.Memory;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.request.Operation;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code MPI_Alltoall}, {@code MPI_Alltoallv} and {@code MPI_Alltoallw}: block {@code j} of rank
 * {@code i}'s send buffer to block {@code i} of rank {@code j}'s receive buffer.
 *
 * <ul>
 *   <li>{@code bruck} (Bruck, Ho, Kipnis, Upfal, Weathersby): the blocks rotated so that block
 *       {@code i} is for the rank {@code i} above, then in round {@code k} every block whose
 *       index has bit {@code k} set goes {@code 2^k} ranks on, packed in one message: {@code
 *       ceil(log2 n)} messages per rank, each block sent up to {@code log2 n} times, for small
 *       blocks.
 *   <li>{@code linear}: every block straight to its rank, all at once.
 *   <li>{@code pairwise}: in round {@code k} each rank sends to the rank {@code k} above and
 *       receives from the rank {@code k} below, one pair at a time, for large blocks.
 *   <li>{@code hierarchical}: each rank sends its whole send buffer to its host's leader (the
 *       lowest rank); each leader sends each other leader, in one message, the blocks its host's
 *       ranks have for that host's ranks, and sends each of its ranks all the blocks for it:
 *       between hosts one message per pair of hosts instead of one per pair of ranks (MagPIe's
 *       rule), for the price of two more hops within each host and the leader's copies. Chosen for
 *       small blocks when the ranks span hosts, where the messages' cost, not their bytes, makes
 *       the time.
 * </ul>
 * The {@code v} and {@code w} forms exchange linearly, or pairwise when the hint says so: a
 * rank knows only the sizes of its own blocks, so no leader could pack its host's.
 */
public final class AllToAll {

    /** Blocks up to this size go by Bruck's algorithm ... */
    static final long BRUCK_BLOCK = 256;
    /** ... among more than this many ranks. */
    static final int BRUCK_RANKS = 2;
    /** Blocks up to this size go through the hosts' leaders when the ranks span hosts. */
    static final long HIERARCHICAL_BLOCK = 1024;
    /** Blocks from this size on go pairwise. */
    static final long PAIRWISE_BLOCK = 128 * 1024;

    private AllToAll() {}

    /** Starts an alltoall of {@code sendcount} elements to each rank and {@code recvcount} from each. */
    public static Operation allToAll(Collectives c, Object sendbuf, int sendcount, Typemap sendtype, Object recvbuf,
                                     int recvcount, Typemap recvtype) {
        int n = c.size();
        Arguments.count(sendcount, "the send buffer");
        Arguments.count(recvcount, "the receive buffer");
        Region send = Arguments.buffer(sendbuf, Math.multiplyExact(sendcount, n), sendtype, false, "the send buffer");
        Region recv = Arguments.buffer(recvbuf, Math.multiplyExact(recvcount, n), recvtype, true, "the receive buffer");
        Region[] out = new Region[n];
        Region[] in = new Region[n];
        for (int i = 0; i < n; i++) {
            out[i] = send.slice((long) i * sendcount, sendcount);
            in[i] = recv.slice((long) i * recvcount, recvcount);
        }
        long block = out[0].bytes();
        Choice choice = choose(c, block, false);
        c.chose(Collective.ALLTOALL, () -> "MPI_Alltoall of " + block + " bytes per pair", choice);
        Plan plan = c.plan();
        switch (choice.algorithm()) {
            case "bruck" -> bruck(plan, out, in, block);
            case "pairwise" -> exchange(plan, out, in, true);
            case Collective.HIERARCHICAL -> hierarchical(plan, c.placement(), out, in, block);
            default -> exchange(plan, out, in, false);
        }
        return plan.start();
    }

    /**
     * Starts an alltoall of blocks of different sizes ({@code MPI_Alltoallv}).
     *
     * @param sdispls where each block starts in {@code sendbuf}, in elements of {@code sendtype}
     * @param rdispls where each block starts in {@code recvbuf}, in elements of {@code recvtype}
     */
    public static Operation allToAllv(Collectives c, Object sendbuf, int[] sendcounts, int[] sdispls,
                                      Typemap sendtype, Object recvbuf, int[] recvcounts, int[] rdispls,
                                      Typemap recvtype) {
        int n = c.size();
        Arguments.counts(sendcounts, sdispls, n, "the send buffer");
        Arguments.counts(recvcounts, rdispls, n, "the receive buffer");
        Memory sm = Arguments.memory(sendbuf, false);
        Memory rm = Arguments.memory(recvbuf, true);
        Region[] out = new Region[n];
        Region[] in = new Region[n];
        for (int i = 0; i < n; i++) {
            out[i] = Arguments.part(sm, sendtype, sdispls[i], sendcounts[i], i, "the send buffer");
            in[i] = Arguments.part(rm, recvtype, rdispls[i], recvcounts[i], i, "the receive buffer");
        }
        return varying(c, "MPI_Alltoallv", out, in);
    }

    /**
     * Starts an alltoall of blocks of different sizes and types ({@code MPI_Alltoallw}).
     *
     * @param sdispls where each block starts in {@code sendbuf}, in bytes
     * @param rdispls where each block starts in {@code recvbuf}, in bytes
     */
    public static Operation allToAllw(Collectives c, Object sendbuf, int[] sendcounts, int[] sdispls,
                                      Typemap[] sendtypes, Object recvbuf, int[] recvcounts, int[] rdispls,
                                      Typemap[] recvtypes) {
        int n = c.size();
        Arguments.counts(sendcounts, sdispls, n, "the send buffer");
        Arguments.counts(recvcounts, rdispls, n, "the receive buffer");
        if (sendtypes.length < n || recvtypes.length < n) {
            throw Arguments.mismatch("MPI_Alltoallw needs a send and a receive type per rank: " + n + ", not "
                + sendtypes.length + " and " + recvtypes.length);
        }
        Memory sm = Arguments.memory(sendbuf, false);
        Memory rm = Arguments.memory(recvbuf, true);
        Region[] out = new Region[n];
        Region[] in = new Region[n];
        for (int i = 0; i < n; i++) {
            out[i] = Arguments.bytesIn(sm, sendtypes[i], sdispls[i], sendcounts[i], i, "the send buffer");
            in[i] = Arguments.bytesIn(rm, recvtypes[i], rdispls[i], recvcounts[i], i, "the receive buffer");
        }
        return varying(c, "MPI_Alltoallw", out, in);
    }

    private static Operation varying(Collectives c, String function, Region[] out, Region[] in) {
        long largest = largest(out);
        Choice choice = choose(c, largest, true);
        c.chose(Collective.ALLTOALL, () -> function + " of up to " + largest + " bytes per pair", choice);
        Plan plan = c.plan();
        exchange(plan, out, in, choice.algorithm().equals("pairwise"));
        return plan.start();
    }

    /** @return the bytes of the largest of {@code regions} */
    private static long largest(Region[] regions) {
        long largest = 0;
        for (Region r : regions) {
            largest = Math.max(largest, r.bytes());
        }
        return largest;
    }

    private static Choice choose(Collectives c, long block, boolean varying) {
        String function = varying ? "MPI_Alltoallv" : "MPI_Alltoall";
        String forced = Collective.ALLTOALL.forced(c.tuning());
        boolean packs = forced != null && (forced.equals("bruck") || forced.equals(Collective.HIERARCHICAL));
        if (forced != null && !(varying && packs)) {
            return new Choice(function, forced, () -> Tuning.PREFIX + "alltoall=" + forced);
        }
        Choice auto = auto(c, function, block, varying);
        return forced != null ? auto.refusing(Tuning.PREFIX + "alltoall=" + forced + " refused: blocks of different "
            + "sizes") : c.unlessHierarchyOff(Collective.ALLTOALL, auto);
    }

    private static Choice auto(Collectives c, String function, long block, boolean varying) {
        if (!varying && c.hierarchical() && block <= HIERARCHICAL_BLOCK) {
            return new Choice(function, Collective.HIERARCHICAL, () -> block + " bytes per pair <= "
                + HIERARCHICAL_BLOCK
                + " among ranks on " + c.placement().hosts() + " hosts: one message per pair of hosts, through their "
                + "leaders");
        }
        if (!varying && block <= BRUCK_BLOCK && c.size() > BRUCK_RANKS) {
            return new Choice(function, "bruck", () -> block + " bytes per pair <= " + BRUCK_BLOCK + " among "
                + c.size()
                + " ranks: log2 n messages per rank");
        }
        if (block >= PAIRWISE_BLOCK) {
            return new Choice(function, "pairwise", () -> block + " bytes per pair >= " + PAIRWISE_BLOCK
                + ": one pair at a time keeps each link to one message");
        }
        return new Choice(function, "linear", () -> (varying ? "blocks of different sizes" : block + " bytes per pair")
            + ": all blocks at once");
    }

    /**
     * @param pairwise whether round {@code k} (to the rank {@code k} above, from the rank {@code k}
     *     below) waits for round {@code k - 1}; else all rounds at once
     */
    private static void exchange(Plan plan, Region[] out, Region[] in, boolean pairwise) {
        int n = plan.size();
        int me = plan.rank();
        plan.local(() -> LocalCopy.copy(out[me], in[me]));
        int previous = Plan.NONE;
        for (int k = 1; k < n; k++) {
            int to = (me + k) % n;
            int from = (me - k + n) % n;
            int wait = pairwise ? previous : Plan.NONE;
            int s = plan.send(to, out[to], wait);
            int r = plan.receive(from, in[from], wait);
            previous = plan.join(s, r);
        }
    }

    /** Bruck's algorithm on blocks packed as the wire carries them; see the class comment. */
    private static void bruck(Plan plan, Region[] out, Region[] in, long block) {
        int n = plan.size();
        int me = plan.rank();
        Packed rotated = new Packed(n, block);
        int ready = plan.local(() -> {
            for (int i = 0; i < n; i++) {
                LocalCopy.copy(out[(me + i) % n], rotated.block(i));
            }
        });
        for (int k = 1; k < n; k <<= 1) {
            List<Integer> moving = new ArrayList<>();
            for (int i = 1; i < n; i++) {
                if ((i & k) != 0) {
                    moving.add(i);
                }
            }
            int m = moving.size();
            Packed outgoing = new Packed(m, block);
            Packed incoming = new Packed(m, block);
            int packed = plan.local(() -> {
                for (int j = 0; j < m; j++) {
                    LocalCopy.copy(rotated.block(moving.get(j)), outgoing.block(j));
                }
            }, ready);
            plan.send((me + k) % n, outgoing.blocks(0, m), packed);
            int received = plan.receive(Math.floorMod(me - k, n), incoming.blocks(0, m));
            ready = plan.local(() -> {
                for (int j = 0; j < m; j++) {
                    LocalCopy.copy(incoming.block(j), rotated.block(moving.get(j)));
                }
            }, received, packed);
        }
        plan.local(() -> {
            for (int i = 0; i < n; i++) {
                LocalCopy.copy(rotated.block(i), in[Math.floorMod(me - i, n)]);
            }
        }, ready);
    }

    /**
     * The hierarchical alltoall; see the class comment. A leader keeps its host's send buffers
     * packed one after the other (rank {@code m} of the host's block for rank {@code j} at
     * {@code m * n + j}), and from each other host the blocks for its own host's ranks (that
     * host's rank {@code s}'s block for this host's rank {@code m} at {@code s * k + m}).
     */
    private static void hierarchical(Plan plan, Placement placement, Region[] out, Region[] in, long block) {
        int n = plan.size();
        int me = plan.rank();
        int[] leaders = placement.leaders(0);
        int host = placement.hostOf(me);
        int[] local = placement.ranksOn(host);
        if (leaders[host] != me) {
            Packed mine = new Packed(n, block);
            int packed = plan.local(() -> {
                for (int j = 0; j < n; j++) {
                    LocalCopy.copy(out[j], mine.block(j));
                }
            });
            plan.send(leaders[host], mine.blocks(0, n), packed);
            Packed result = new Packed(n, block);
            int received = plan.receive(leaders[host], result.blocks(0, n));
            plan.local(() -> {
                for (int i = 0; i < n; i++) {
                    LocalCopy.copy(result.block(i), in[i]);
                }
            }, received);
            return;
        }
        int k = local.length;
        Packed gathered = new Packed(k * n, block);
        int[] steps = new int[k];
        for (int m = 0; m < k; m++) {
            int at = m * n;
            steps[m] = local[m] != me ? plan.receive(local[m], gathered.blocks(at, n)) : plan.local(() -> {
                for (int j = 0; j < n; j++) {
                    LocalCopy.copy(out[j], gathered.block(at + j));
                }
            });
        }
        int all = plan.join(steps);
        Packed[] from = new Packed[leaders.length];
        int[] arrived = new int[leaders.length];
        arrived[host] = all;
        for (int t = 1; t < leaders.length; t++) {
            int h = (host + t) % leaders.length;
            int[] members = placement.ranksOn(h);
            Packed to = new Packed(k * members.length, block);
            int packed = plan.local(() -> {
                for (int m = 0; m < k; m++) {
                    for (int s = 0; s < members.length; s++) {
                        LocalCopy.copy(gathered.block(m * n + members[s]), to.block(m * members.length + s));
                    }
                }
            }, all);
            plan.send(leaders[h], to.blocks(0, k * members.length), packed);
            from[h] = new Packed(members.length * k, block);
            arrived[h] = plan.receive(leaders[h], from[h].blocks(0, members.length * k));
        }
        int ready = plan.join(arrived);
        int[] position = new int[n];
        for (int h = 0; h < leaders.length; h++) {
            int[] members = placement.ranksOn(h);
            for (int s = 0; s < members.length; s++) {
                position[members[s]] = s;
            }
        }
        for (int m = 0; m < k; m++) {
            Region[] sources = new Region[n];
            for (int i = 0; i < n; i++) {
                int h = placement.hostOf(i);
                sources[i] = h == host ? gathered.block(position[i] * n + local[m]) : from[h].block(position[i] * k + m);
            }
            if (local[m] == me) {
                plan.local(() -> {
                    for (int i = 0; i < n; i++) {
                        LocalCopy.copy(sources[i], in[i]);
                    }
                }, ready);
            } else {
                Packed result = new Packed(n, block);
                int packed = plan.local(() -> {
                    for (int i = 0; i < n; i++) {
                        LocalCopy.copy(sources[i], result.block(i));
                    }
                }, ready);
                plan.send(local[m], result.blocks(0, n), packed);
            }
        }
    }
}
