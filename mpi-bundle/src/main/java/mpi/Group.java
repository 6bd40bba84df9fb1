package mpi;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.comm.Groups;

/**
 * An ordered set of ranks ({@code MPI_Group}). Groups are local objects: making one communicates
 * nothing. Immutable, but for {@link #free}.
 */
public final class Group implements Freeable {

    /** The job's ranks, by rank in the group. */
    private final int[] members;
    private volatile boolean freed;

    Group(int[] members) {
        this.members = members;
    }

    int[] members() throws MPIException {
        MPI.check();
        if (freed) {
            throw Errors.raise(new MpiError(ErrorClass.ERR_GROUP, "the group was freed"));
        }
        return members;
    }

    /** @return the number of ranks ({@code MPI_GROUP_SIZE}) */
    public int getSize() throws MPIException {
        return members().length;
    }

    /** @return this rank's rank in the group, or {@link MPI#UNDEFINED} ({@code MPI_GROUP_RANK}) */
    public int getRank() throws MPIException {
        return Groups.rankOf(members(), MPI.session().world().rank());
    }

    /** Frees the group ({@code MPI_GROUP_FREE}). @throws MPIException for {@link MPI#GROUP_EMPTY} */
    @Override
    public void free() throws MPIException {
        members();
        if (this == MPI.GROUP_EMPTY) {
            throw Errors.raise(new MpiError(ErrorClass.ERR_GROUP, "MPI.GROUP_EMPTY is predefined and cannot be freed"));
        }
        freed = true;
    }

    /** @return whether the group was freed ({@code MPI_GROUP_NULL}) */
    public boolean isNull() {
        return freed;
    }

    /**
     * @return the ranks in {@code group2} of the ranks {@code ranks1} of {@code group1}:
     *     {@link MPI#UNDEFINED} where it has none ({@code MPI_GROUP_TRANSLATE_RANKS})
     */
    public static int[] translateRanks(Group group1, int[] ranks1, Group group2) throws MPIException {
        int[] a = group1.members();
        int[] b = group2.members();
        try {
            return Groups.translate(a, ranks1, b);
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /**
     * @return {@link MPI#IDENT} for the same ranks in the same order, {@link MPI#SIMILAR} for the
     *     same ranks, else {@link MPI#UNEQUAL} ({@code MPI_GROUP_COMPARE})
     */
    public static int compare(Group group1, Group group2) throws MPIException {
        return Groups.compare(group1.members(), group2.members());
    }

    /** @return {@code group1}'s ranks, then {@code group2}'s that are not in it ({@code MPI_GROUP_UNION}) */
    public static Group union(Group group1, Group group2) throws MPIException {
        return new Group(Groups.union(group1.members(), group2.members()));
    }

    /** @return {@code group1}'s ranks that are in {@code group2} ({@code MPI_GROUP_INTERSECTION}) */
    public static Group intersection(Group group1, Group group2) throws MPIException {
        return new Group(Groups.intersection(group1.members(), group2.members()));
    }

    /** @return {@code group1}'s ranks that are not in {@code group2} ({@code MPI_GROUP_DIFFERENCE}) */
    public static Group difference(Group group1, Group group2) throws MPIException {
        return new Group(Groups.difference(group1.members(), group2.members()));
    }

    /** @return the ranks {@code ranks}, in that order ({@code MPI_GROUP_INCL}) */
    public Group incl(int[] ranks) throws MPIException {
        int[] m = members();
        try {
            return new Group(Groups.incl(m, ranks));
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /** @return the ranks but {@code ranks} ({@code MPI_GROUP_EXCL}) */
    public Group excl(int[] ranks) throws MPIException {
        int[] m = members();
        try {
            return new Group(Groups.excl(m, ranks));
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /** @return the ranks of the ranges {first, last, stride}, in order ({@code MPI_GROUP_RANGE_INCL}) */
    public Group rangeIncl(int[][] ranges) throws MPIException {
        int[] m = members();
        try {
            return new Group(Groups.rangeIncl(m, ranges));
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /** @return the ranks outside the ranges {first, last, stride} ({@code MPI_GROUP_RANGE_EXCL}) */
    public Group rangeExcl(int[][] ranges) throws MPIException {
        int[] m = members();
        try {
            return new Group(Groups.rangeExcl(m, ranges));
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }
}
