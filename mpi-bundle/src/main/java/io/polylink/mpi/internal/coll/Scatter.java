package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Plan;
import io.polylink.mpi.internal.datatype.LocalCopy;
import io.polylink.mpi.internal.datatype.Memory;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.request.Operation;

/**
 * {@code MPI_Scatter} and {@code MPI_Scatterv}: a block of the root's buffer to every rank, the
 * inverse of {@link Gather}, with the same algorithms: {@code linear} (the root sends every
 * block straight to its rank; always for {@code MPI_Scatterv}), {@code binomial} (down a
 * binomial tree, each rank receiving its subtree's blocks packed in one message) and
 * {@code hierarchical} (the root sends each other host's leader that host's blocks packed in one
 * message, and each leader passes them on to its host's ranks; chosen whenever the ranks span
 * hosts).
 */
public final class Scatter {

    private Scatter() {}

    /**
     * Starts a scatter.
     *
     * @param sendbuf the root's buffer of {@code size * sendcount} elements; ignored elsewhere
     * @param recvbuf this rank's block; ignored at the root when {@code inPlace}
     * @param inPlace whether the root's block stays in place in {@code sendbuf}
     */
    public static Operation scatter(Collectives c, Object sendbuf, int sendcount, Typemap sendtype, Object recvbuf,
                                    int recvcount, Typemap recvtype, int root, boolean inPlace) {
        int n = c.size();
        int me = c.rank();
        Arguments.root(root, n);
        Region recv = me == root && inPlace ? null : Arguments.buffer(recvbuf, recvcount, recvtype, true,
            "the receive buffer");
        Region send = null;
        long block;
        if (me == root) {
            Arguments.count(sendcount, "the send buffer");
            send = Arguments.buffer(sendbuf, Math.multiplyExact(sendcount, n), sendtype, false, "the send buffer");
            block = sendtype.size() * sendcount;
        } else {
            block = recv.bytes();
        }
        Choice choice = choose(c, block);
        c.chose(Collective.SCATTER, () -> "MPI_Scatter of " + block + " bytes per rank from rank " + root, choice);
        Plan plan = c.plan();
        Region s = send;
        Gather.Parts parts = s == null ? null : i -> s.slice((long) i * sendcount, sendcount);
        if (choice.algorithm().equals("binomial") && n > 1) {
            binomial(plan, send, sendcount, recv, root, block);
        } else if (choice.algorithm().equals(Collective.HIERARCHICAL)) {
            hierarchical(plan, c.placement(), parts, recv, root, block);
        } else {
            linear(plan, parts, recv, root);
        }
        return plan.start();
    }

    /**
     * Starts a scatter of blocks of different sizes ({@code MPI_Scatterv}), linearly.
     *
     * @param sendcounts elements to each rank, at the root
     * @param displs where each rank's block starts in {@code sendbuf}, in elements of {@code sendtype}
     */
    public static Operation scatterv(Collectives c, Object sendbuf, int[] sendcounts, int[] displs, Typemap sendtype,
                                     Object recvbuf, int recvcount, Typemap recvtype, int root, boolean inPlace) {
        int n = c.size();
        int me = c.rank();
        Arguments.root(root, n);
        Region recv = me == root && inPlace ? null : Arguments.buffer(recvbuf, recvcount, recvtype, true,
            "the receive buffer");
        Region[] parts = null;
        if (me == root) {
            Arguments.counts(sendcounts, displs, n, "the send buffer");
            Memory memory = Arguments.memory(sendbuf, false);
            parts = new Region[n];
            for (int i = 0; i < n; i++) {
                parts[i] = Arguments.part(memory, sendtype, displs[i], sendcounts[i], i, "the send buffer");
            }
        }
        c.chose(Collective.SCATTER, () -> "MPI_Scatterv from rank " + root, new Choice("MPI_Scatterv", "linear",
            () -> "only the root knows the counts"));
        Plan plan = c.plan();
        Region[] p = parts;
        linear(plan, p == null ? null : i -> p[i], recv, root);
        return plan.start();
    }

    private static Choice choose(Collectives c, long block) {
        String forced = Collective.SCATTER.forced(c.tuning());
        if (forced != null) {
            return new Choice("MPI_Scatter", forced, () -> Tuning.PREFIX + "scatter=" + forced);
        }
        return c.unlessHierarchyOff(Collective.SCATTER, auto(c, block));
    }

    private static Choice auto(Collectives c, long block) {
        if (c.hierarchical()) {
            return new Choice("MPI_Scatter", Collective.HIERARCHICAL, () -> "ranks on " + c.placement().hosts()
                + " hosts: one message per host from the root to its leader, which passes the blocks on");
        }
        if (block <= Gather.BINOMIAL_BLOCK && c.size() >= Gather.BINOMIAL_RANKS) {
            return new Choice("MPI_Scatter", "binomial", () -> block + " bytes per rank <= " + Gather.BINOMIAL_BLOCK
                + " to " + c.size() + " >= " + Gather.BINOMIAL_RANKS + " ranks: fewer messages from the root");
        }
        return new Choice("MPI_Scatter", "linear", () -> c.size() < Gather.BINOMIAL_RANKS ? c.size() + " < "
            + Gather.BINOMIAL_RANKS + " ranks: straight from the root" : block + " bytes per rank > "
            + Gather.BINOMIAL_BLOCK + ": each block once, straight from the root");
    }

    /** @param parts at the root, each rank's block; elsewhere {@code null} */
    private static void linear(Plan plan, Gather.Parts parts, Region recv, int root) {
        if (plan.rank() != root) {
            plan.receive(root, recv);
        } else {
            linear(plan, parts, recv, Reduce.all(plan.size()), Plan.NONE);
        }
    }

    /**
     * Adds the steps of this rank sending each of {@code members} its block, once {@code after}
     * completed, and keeping its own (unless {@code recv} is {@code null}: in place).
     */
    private static void linear(Plan plan, Gather.Parts parts, Region recv, int[] members, int after) {
        for (int member : members) {
            Region part = parts.of(member);
            if (member != plan.rank()) {
                plan.send(member, part, after);
            } else if (recv != null) {
                plan.local(() -> LocalCopy.copy(part, recv), after);
            }
        }
    }

    /**
     * The root packs the others' blocks in the order of their ranks relative to it and sends each
     * child its subtree's; each rank unpacks its own block and sends its children theirs.
     */
    private static void binomial(Plan plan, Region send, int sendcount, Region recv, int root, long block) {
        int n = plan.size();
        int me = plan.rank();
        int vr = Math.floorMod(me - root, n);
        Trees.Tree tree = Trees.binomial(java.util.stream.IntStream.range(0, n).toArray(), root, me);
        int subtree = vr == 0 ? n : Math.min(Integer.lowestOneBit(vr), n - vr);
        Packed packed = new Packed(vr == 0 ? n - 1 : subtree, block);
        int base = vr == 0 ? 1 : vr;
        int have;
        if (vr == 0) {
            int[] packedAll = new int[n - 1];
            for (int j = 1; j < n; j++) {
                Region from = send.slice((long) ((j + root) % n) * sendcount, sendcount);
                Region to = packed.block(j - 1);
                packedAll[j - 1] = plan.local(() -> LocalCopy.copy(from, to));
            }
            have = plan.join(packedAll);
            if (recv != null) {
                Region own = send.slice((long) root * sendcount, sendcount);
                plan.local(() -> LocalCopy.copy(own, recv));
            }
        } else {
            have = plan.receive(tree.parent(), packed.blocks(0, subtree));
            Region mine = packed.block(0);
            plan.local(() -> LocalCopy.copy(mine, recv), have);
        }
        int[] children = tree.children();
        for (int i = children.length - 1; i >= 0; i--) {
            int child = Math.floorMod(children[i] - root, n);
            int blocks = Math.min(Integer.lowestOneBit(child), n - child);
            plan.send(children[i], packed.blocks(child - base, blocks), have);
        }
    }

    /**
     * The root packs each other host's blocks in rank order and sends them to its leader in one
     * message, then sends its own host's ranks their blocks; each other leader passes its host's
     * blocks on.
     *
     * @param parts at the root, each rank's block; elsewhere {@code null}
     */
    private static void hierarchical(Plan plan, Placement placement, Gather.Parts parts, Region recv, int root,
                                     long block) {
        int me = plan.rank();
        int[] leaders = placement.leaders(root);
        int host = placement.hostOf(me);
        int[] local = placement.ranksOn(host);
        if (me == root) {
            for (int h = 0; h < leaders.length; h++) {
                if (h != host) {
                    int[] members = placement.ranksOn(h);
                    Packed packed = new Packed(members.length, block);
                    int ready = plan.local(() -> {
                        for (int j = 0; j < members.length; j++) {
                            LocalCopy.copy(parts.of(members[j]), packed.block(j));
                        }
                    });
                    plan.send(leaders[h], packed.blocks(0, members.length), ready);
                }
            }
            linear(plan, parts, recv, local, Plan.NONE);
        } else if (me == leaders[host]) {
            Packed packed = new Packed(local.length, block);
            int received = plan.receive(root, packed.blocks(0, local.length));
            linear(plan, i -> packed.block(Trees.indexOf(local, i)), recv, local, received);
        } else {
            plan.receive(leaders[host], recv);
        }
    }
}
