package io.polylink.mpi.internal.comm;

import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.Kind;
import io.polylink.mpi.internal.datatype.Memories;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.p2p.PointToPoint;
import io.polylink.mpi.internal.request.Operation;

/**
 * Small agreements among the members of a view, on a collective context: every member's few ints
 * gathered at the first member and sent back to all. What creating a communicator needs (its
 * context id, a split's colours and keys) before the collectives exist to do it.
 */
final class Agreement {

    private static final Typemap INT = Typemap.basic(Kind.INT);

    private Agreement() {}

    /** A new context id, and the values the members gave with their first proposal. */
    record Agreed(int context, int[][] values) {}

    /**
     * Agrees on a context id free at every member, as {@link ContextIds} describes.
     *
     * @param values this rank's values for the others, the same length at every member
     * @return the id, claimed here, and everyone's values
     */
    static Agreed newContext(World world, View view, int context, int tag, int[] values) {
        ContextIds ids = world.contextIds();
        int floor = -1;
        int[][] first = null;
        while (true) {
            int proposal = ids.propose(floor);
            int[] mine = new int[values.length + 1];
            mine[0] = proposal;
            System.arraycopy(values, 0, mine, 1, values.length);
            int[][] all = allGather(world, view, context, tag, mine);
            if (first == null) {
                first = new int[all.length][];
                for (int i = 0; i < all.length; i++) {
                    first[i] = java.util.Arrays.copyOfRange(all[i], 1, all[i].length);
                }
            }
            int id = 0;
            for (int[] a : all) {
                id = Math.max(id, a[0]);
            }
            boolean free = ids.claim(id, proposal);
            boolean everywhere = true;
            for (int[] vote : allGather(world, view, context, tag, new int[] {free ? 1 : 0})) {
                everywhere &= vote[0] == 1;
            }
            if (everywhere) {
                return new Agreed(id, first);
            }
            if (free) {
                ids.release(id);
            }
            floor = id;
        }
    }

    /**
     * @return every member's {@code mine}, by rank in the view
     * @throws MpiError if a message cannot be sent or received
     */
    static int[][] allGather(World world, View view, int context, int tag, int[] mine) {
        PointToPoint p2p = world.p2p();
        int n = view.size();
        int k = mine.length;
        int me = view.me();
        int[] table = new int[n * k];
        if (me == 0) {
            System.arraycopy(mine, 0, table, 0, k);
            Operation[] received = new Operation[n];
            int[][] parts = new int[n][k];
            try {
                for (int i = 1; i < n; i++) {
                    received[i] = p2p.receive(context, view.worldRank(i), tag, Memories.of(parts[i], true), INT, k, view);
                }
                for (int i = 1; i < n; i++) {
                    finish(world, received[i]);
                    System.arraycopy(parts[i], 0, table, i * k, k);
                }
            } catch (MpiError e) {
                // Receives left posted would take the messages of the next agreement on this context.
                for (Operation r : received) {
                    if (r != null) {
                        r.cancel();
                    }
                }
                throw e;
            }
            for (int i = 1; i < n; i++) {
                finish(world, p2p.send(context, view.worldRank(i), me, tag, Memories.of(table, false), INT, table.length,
                    false));
            }
        } else {
            finish(world, p2p.send(context, view.worldRank(0), me, tag, Memories.of(mine, false), INT, k, false));
            finish(world, p2p.receive(context, view.worldRank(0), tag, Memories.of(table, true), INT, table.length, view));
        }
        int[][] all = new int[n][];
        for (int i = 0; i < n; i++) {
            all[i] = java.util.Arrays.copyOfRange(table, i * k, i * k + k);
        }
        return all;
    }

    private static void finish(World world, Operation op) {
        op.await(world.limits().idle());
        if (op.error() != null) {
            throw op.error();
        }
    }
}
