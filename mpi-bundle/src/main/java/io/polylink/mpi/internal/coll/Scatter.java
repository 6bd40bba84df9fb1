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
 * block straight to its rank; always for {@code MPI_Scatterv}) and {@code binomial} (down a
 * binomial tree, each rank receiving its subtree's blocks packed in one message).
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
        c.chose(Collective.SCATTER, "MPI_Scatter of " + block + " bytes per rank from rank " + root, choice);
        Plan plan = c.plan();
        if (choice.algorithm().equals("binomial") && n > 1) {
            binomial(plan, send, sendcount, recv, root, block);
        } else {
            Region s = send;
            linear(plan, s == null ? null : i -> s.slice((long) i * sendcount, sendcount), recv, root);
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
        c.chose(Collective.SCATTER, "MPI_Scatterv from rank " + root, new Choice("MPI_Scatterv", "linear",
            "only the root knows the counts"));
        Plan plan = c.plan();
        Region[] p = parts;
        linear(plan, p == null ? null : i -> p[i], recv, root);
        return plan.start();
    }

    private static Choice choose(Collectives c, long block) {
        String forced = c.tuning().forced(Collective.SCATTER);
        if (forced != null) {
            return new Choice("MPI_Scatter", forced, Tuning.PREFIX + "scatter=" + forced);
        }
        if (block <= Gather.BINOMIAL_BLOCK && c.size() >= Gather.BINOMIAL_RANKS) {
            return new Choice("MPI_Scatter", "binomial", block + " bytes per rank <= " + Gather.BINOMIAL_BLOCK
                + " to " + c.size() + " >= " + Gather.BINOMIAL_RANKS + " ranks: fewer messages from the root");
        }
        return new Choice("MPI_Scatter", "linear", c.size() < Gather.BINOMIAL_RANKS ? c.size() + " < "
            + Gather.BINOMIAL_RANKS + " ranks: straight from the root" : block + " bytes per rank > "
            + Gather.BINOMIAL_BLOCK + ": each block once, straight from the root");
    }

    /** @param parts at the root, each rank's block; elsewhere {@code null} */
    private static void linear(Plan plan, Gather.Parts parts, Region recv, int root) {
        int me = plan.rank();
        if (me != root) {
            plan.receive(root, recv);
            return;
        }
        for (int i = 0; i < plan.size(); i++) {
            if (i != root) {
                plan.send(i, parts.of(i));
            }
        }
        if (recv != null) {
            Region own = parts.of(root);
            plan.local(() -> LocalCopy.copy(own, recv));
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
}
