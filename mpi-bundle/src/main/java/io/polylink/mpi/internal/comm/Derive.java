package io.polylink.mpi.internal.comm;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * New communicators from old: {@code dup}, {@code split}, {@code create}, {@code create_group}
 * and the Cartesian constructors. Each is collective: the members agree on a context id (see
 * {@link Agreement}) on the parent's collective context, and a split's colours and keys travel
 * with the first proposal.
 */
public final class Derive {

    private static final int AGREEMENT_TAG = -8;
    private static final int GROUP_TAG_BASE = -(1 << 30);

    private Derive() {}

    /** @return a communicator of the same ranks with a new context, copies of the attributes and the same error handler */
    public static Communicator dup(Communicator parent) {
        parent.checkLive();
        Agreement.Agreed a = agree(parent, new int[0]);
        return parent.derived(parent.members(), a.context(), parent.cartesian());
    }

    /**
     * @param colour ranks of one colour form one communicator; {@code MPI.UNDEFINED} joins none
     * @param key orders ranks within a colour, ties broken by rank in the parent
     * @return this rank's new communicator, or {@code null} for {@code MPI.UNDEFINED}
     */
    public static Communicator split(Communicator parent, int colour, int key) {
        return split(parent, colour, key, null);
    }

    private static Communicator split(Communicator parent, int colour, int key, Cartesian topology) {
        parent.checkLive();
        if (colour < 0 && colour != Groups.UNDEFINED) {
            throw new MpiError(ErrorClass.ERR_ARG, "split colour " + colour + " is negative and not MPI.UNDEFINED");
        }
        Agreement.Agreed a = agree(parent, new int[] {colour, key});
        if (colour == Groups.UNDEFINED) {
            parent.world().contextIds().release(a.context());
            return null;
        }
        int[][] v = a.values();
        Integer[] same = IntStream.range(0, parent.size()).filter(i -> v[i][0] == colour).boxed().toArray(Integer[]::new);
        Arrays.sort(same, Comparator.<Integer>comparingInt(i -> v[i][1]).thenComparingInt(i -> i));
        int[] members = new int[same.length];
        for (int i = 0; i < same.length; i++) {
            members[i] = parent.worldRank(same[i]);
        }
        return parent.derived(members, a.context(), topology);
    }

    /**
     * {@code MPI_Comm_create}: collective over the parent.
     *
     * @param group the job's ranks of the new communicator, all in the parent, the same at every rank
     * @return the new communicator, or {@code null} at ranks outside {@code group}
     */
    public static Communicator create(Communicator parent, int[] group) {
        parent.checkLive();
        checkSubgroup(parent, group);
        Agreement.Agreed a = agree(parent, new int[0]);
        return member(parent, group, a.context(), null);
    }

    /**
     * {@code MPI_Comm_create_group}: collective over {@code group}'s members only.
     *
     * @param tag tells apart creations that run at once over overlapping groups
     * @return the new communicator, or {@code null} if this rank is not in {@code group}
     */
    public static Communicator createGroup(Communicator parent, int[] group, int tag) {
        parent.checkLive();
        checkSubgroup(parent, group);
        Communicator.checkTag(tag, false);
        World world = parent.world();
        View sub = new View(group, world.size(), world.rank());
        if (sub.me() < 0) {
            return null;
        }
        Agreement.Agreed a = Agreement.newContext(world, sub, parent.collectiveContext(),
            GROUP_TAG_BASE - (tag & ((1 << 30) - 1)), new int[0]);
        return parent.derived(group, a.context(), null);
    }

    /**
     * {@code MPI_Cart_create} without reordering: the first ranks fill the grid row by row.
     *
     * @return the Cartesian communicator, or {@code null} at ranks beyond the grid
     */
    public static Communicator cart(Communicator parent, int[] dims, boolean[] periods) {
        parent.checkLive();
        Cartesian grid = new Cartesian(dims, periods);
        if (grid.size() > parent.size()) {
            throw new MpiError(ErrorClass.ERR_DIMS, "a grid of " + Arrays.toString(dims) + " needs " + grid.size()
                + " ranks; " + parent.describe() + " has " + parent.size());
        }
        Agreement.Agreed a = agree(parent, new int[0]);
        return member(parent, Arrays.copyOf(parent.members(), grid.size()), a.context(), grid);
    }

    /** {@code MPI_Cart_sub}: the sub-grid through this rank of the dimensions {@code remain} keeps. */
    public static Communicator cartSub(Communicator parent, boolean[] remain) {
        Cartesian grid = parent.requireCartesian();
        Cartesian sub = grid.sub(remain);
        return split(parent, grid.slice(parent.rank(), remain), parent.rank(), sub);
    }

    private static Agreement.Agreed agree(Communicator parent, int[] values) {
        return Agreement.newContext(parent.world(), parent.view(), parent.collectiveContext(), AGREEMENT_TAG, values);
    }

    private static Communicator member(Communicator parent, int[] group, int id, Cartesian topology) {
        if (Groups.rankOf(group, parent.world().rank()) == Groups.UNDEFINED) {
            parent.world().contextIds().release(id);
            return null;
        }
        return parent.derived(group, id, topology);
    }

    private static void checkSubgroup(Communicator parent, int[] group) {
        for (int m : group) {
            if (parent.rankOf(m) < 0) {
                throw new MpiError(ErrorClass.ERR_GROUP, "the group holds rank " + m + " of the job, which is not in "
                    + parent.describe());
            }
        }
    }
}
