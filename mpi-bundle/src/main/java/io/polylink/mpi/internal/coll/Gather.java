package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Plan;
import io.polylink.mpi.internal.datatype.LocalCopy;
import io.polylink.mpi.internal.datatype.Memory;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.request.Operation;

/**
 * {@code MPI_Gather} and {@code MPI_Gatherv}: every rank's block to the root.
 *
 * <ul>
 *   <li>{@code linear}: every rank sends its block straight to the root, which receives them all
 *       at once into place. {@code MPI_Gatherv} always gathers so: only the root knows the counts.
 *   <li>{@code binomial}: up a binomial tree, each rank passing on its subtree's blocks packed in
 *       one message: {@code ceil(log2 n)} steps at the root instead of {@code n - 1} messages, for
 *       small blocks to many ranks.
 *   <li>{@code hierarchical}: each host's ranks send their blocks to its leader (the root on the
 *       root's host), which packs them in rank order and sends them to the root in one message:
 *       one message per host between hosts, each block crossing once. Chosen whenever the ranks
 *       span hosts.
 * </ul>
 */
public final class Gather {

    /** Blocks up to this size go up a binomial tree ... */
    static final long BINOMIAL_BLOCK = 2048;
    /** ... when there are at least this many ranks. */
    static final int BINOMIAL_RANKS = 8;

    private Gather() {}

    /**
     * Starts a gather.
     *
     * @param sendbuf this rank's block; ignored at the root when {@code inPlace}
     * @param recvbuf the root's buffer of {@code size * recvcount} elements; ignored elsewhere
     * @param inPlace whether the root's block is in place in {@code recvbuf} already
     */
    public static Operation gather(Collectives c, Object sendbuf, int sendcount, Typemap sendtype, Object recvbuf,
                                   int recvcount, Typemap recvtype, int root, boolean inPlace) {
        int n = c.size();
        int me = c.rank();
        Arguments.root(root, n);
        Region send = me == root && inPlace ? null : Arguments.buffer(sendbuf, sendcount, sendtype, false,
            "the send buffer");
        Region recv = null;
        long block;
        if (me == root) {
            Arguments.count(recvcount, "the receive buffer");
            recv = Arguments.buffer(recvbuf, Math.multiplyExact(recvcount, n), recvtype, true, "the receive buffer");
            block = recvtype.size() * recvcount;
        } else {
            block = send.bytes();
        }
        Choice choice = choose(c, block);
        c.chose(Collective.GATHER, () -> "MPI_Gather of " + block + " bytes per rank to rank " + root, choice);
        Plan plan = c.plan();
        Region r = recv;
        Parts parts = r == null ? null : i -> r.slice((long) i * recvcount, recvcount);
        if (choice.algorithm().equals("binomial") && n > 1) {
            binomial(plan, send, recv, recvcount, root, block);
        } else if (choice.algorithm().equals(Collective.HIERARCHICAL)) {
            hierarchical(plan, c.placement(), send, parts, root, block);
        } else {
            linear(plan, send, parts, root);
        }
        return plan.start();
    }

    /**
     * Starts a gather of blocks of different sizes ({@code MPI_Gatherv}), linearly.
     *
     * @param recvcounts elements from each rank, at the root
     * @param displs where each rank's block starts in {@code recvbuf}, in elements of {@code recvtype}
     */
    public static Operation gatherv(Collectives c, Object sendbuf, int sendcount, Typemap sendtype, Object recvbuf,
                                    int[] recvcounts, int[] displs, Typemap recvtype, int root, boolean inPlace) {
        int n = c.size();
        int me = c.rank();
        Arguments.root(root, n);
        Region send = me == root && inPlace ? null : Arguments.buffer(sendbuf, sendcount, sendtype, false,
            "the send buffer");
        Region[] parts = null;
        if (me == root) {
            Arguments.counts(recvcounts, displs, n, "the receive buffer");
            Memory memory = Arguments.memory(recvbuf, true);
            parts = new Region[n];
            for (int i = 0; i < n; i++) {
                parts[i] = Arguments.part(memory, recvtype, displs[i], recvcounts[i], i, "the receive buffer");
            }
        }
        c.chose(Collective.GATHER, () -> "MPI_Gatherv to rank " + root, new Choice("MPI_Gatherv", "linear",
            () -> "only the root knows the counts"));
        Plan plan = c.plan();
        Region[] p = parts;
        linear(plan, send, p == null ? null : i -> p[i], root);
        return plan.start();
    }

    private static Choice choose(Collectives c, long block) {
        String forced = Collective.GATHER.forced(c.tuning());
        if (forced != null) {
            return new Choice("MPI_Gather", forced, () -> Tuning.PREFIX + "gather=" + forced);
        }
        return c.unlessHierarchyOff(Collective.GATHER, auto(c, block));
    }

    private static Choice auto(Collectives c, long block) {
        if (c.hierarchical()) {
            return new Choice("MPI_Gather", Collective.HIERARCHICAL, () -> "ranks on " + c.placement().hosts()
                + " hosts: each host's blocks to its leader, one message per host to the root");
        }
        if (block <= BINOMIAL_BLOCK && c.size() >= BINOMIAL_RANKS) {
            return new Choice("MPI_Gather", "binomial", () -> block + " bytes per rank <= " + BINOMIAL_BLOCK + " from "
                + c.size() + " >= " + BINOMIAL_RANKS + " ranks: fewer messages at the root");
        }
        return new Choice("MPI_Gather", "linear", () -> c.size() < BINOMIAL_RANKS ? c.size() + " < " + BINOMIAL_RANKS
            + " ranks: straight to the root" : block + " bytes per rank > " + BINOMIAL_BLOCK
            + ": each block once, straight to the root");
    }

    /** Where rank {@code i}'s block goes at the root. */
    @FunctionalInterface
    interface Parts {
        Region of(int i);
    }

    /** @param parts at the root, where each rank's block goes; elsewhere {@code null} */
    private static void linear(Plan plan, Region send, Parts parts, int root) {
        if (plan.rank() != root) {
            plan.send(root, send);
        } else {
            linear(plan, send, parts, Reduce.all(plan.size()));
        }
    }

    /**
     * Adds the steps of this rank gathering the blocks of {@code members}, itself one of them
     * (whose block is in place already if {@code send} is {@code null}).
     *
     * @return the steps that put each block in place
     */
    private static int[] linear(Plan plan, Region send, Parts parts, int[] members) {
        int[] steps = new int[members.length];
        for (int j = 0; j < members.length; j++) {
            Region into = parts.of(members[j]);
            steps[j] = members[j] != plan.rank() ? plan.receive(members[j], into)
                : send == null ? Plan.NONE : plan.local(() -> LocalCopy.copy(send, into));
        }
        return steps;
    }

    /**
     * Each rank packs its block and those its children's subtrees send it, in the order of their
     * ranks relative to the root, and sends them on in one message; the root unpacks each block
     * into place.
     */
    private static void binomial(Plan plan, Region send, Region recv, int recvcount, int root, long block) {
        int n = plan.size();
        int me = plan.rank();
        int vr = Math.floorMod(me - root, n);
        int[] all = java.util.stream.IntStream.range(0, n).toArray();
        Trees.Tree tree = Trees.binomial(all, root, me);
        int subtree = vr == 0 ? n : Math.min(Integer.lowestOneBit(vr), n - vr);
        // The root keeps the others' blocks, relative ranks 1 to n - 1; the others their subtree's, from their own.
        Packed packed = new Packed(vr == 0 ? n - 1 : subtree, block);
        int base = vr == 0 ? 1 : vr;
        int[] received = new int[tree.children().length + 1];
        for (int i = 0; i < tree.children().length; i++) {
            int child = Math.floorMod(tree.children()[i] - root, n);
            int blocks = Math.min(Integer.lowestOneBit(child), n - child);
            received[i] = plan.receive(tree.children()[i], packed.blocks(child - base, blocks));
            if (vr == 0) {
                for (int j = child; j < child + blocks; j++) {
                    Region from = packed.block(j - 1);
                    Region to = recv.slice((long) ((j + root) % n) * recvcount, recvcount);
                    plan.local(() -> LocalCopy.copy(from, to), received[i]);
                }
            }
        }
        if (vr == 0) {
            if (send != null) {
                Region own = recv.slice((long) root * recvcount, recvcount);
                plan.local(() -> LocalCopy.copy(send, own));
            }
            return;
        }
        Region mine = packed.block(0);
        received[tree.children().length] = plan.local(() -> LocalCopy.copy(send, mine));
        plan.send(tree.parent(), packed.blocks(0, subtree), received);
    }

    /**
     * Each host's ranks send their blocks to its leader; a leader other than the root packs its
     * host's blocks in rank order and sends them to the root in one message, which the root
     * unpacks into place.
     *
     * @param parts at the root, where each rank's block goes; elsewhere {@code null}
     */
    private static void hierarchical(Plan plan, Placement placement, Region send, Parts parts, int root, long block) {
        int me = plan.rank();
        int[] leaders = placement.leaders(root);
        int host = placement.hostOf(me);
        int[] local = placement.ranksOn(host);
        if (me == root) {
            linear(plan, send, parts, local);
            for (int h = 0; h < leaders.length; h++) {
                if (h != host) {
                    int[] members = placement.ranksOn(h);
                    Packed packed = new Packed(members.length, block);
                    int received = plan.receive(leaders[h], packed.blocks(0, members.length));
                    plan.local(() -> {
                        for (int j = 0; j < members.length; j++) {
                            LocalCopy.copy(packed.block(j), parts.of(members[j]));
                        }
                    }, received);
                }
            }
        } else if (me == leaders[host]) {
            Packed packed = new Packed(local.length, block);
            Parts into = i -> packed.block(Trees.indexOf(local, i));
            int gathered = plan.join(linear(plan, send, into, local));
            plan.send(root, packed.blocks(0, local.length), gathered);
        } else {
            plan.send(leaders[host], send);
        }
    }
}
