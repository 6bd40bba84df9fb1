package io.polylink.mpi.internal.comm;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Group algebra on ordered lists of the job's ranks, as MPI defines it: a group's rank {@code i}
 * is the job's rank {@code members[i]}. Every method returns a new array.
 */
public final class Groups {

    public static final int IDENT = 0;
    public static final int CONGRUENT = 1;
    public static final int SIMILAR = 2;
    public static final int UNEQUAL = 3;
    /** {@code MPI.UNDEFINED}. */
    public static final int UNDEFINED = -32766;
    /** {@code MPI.PROC_NULL}. */
    public static final int PROC_NULL = -2;

    private Groups() {}

    /** @return the position of {@code worldRank} in {@code members}, or {@link #UNDEFINED} */
    public static int rankOf(int[] members, int worldRank) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == worldRank) {
                return i;
            }
        }
        return UNDEFINED;
    }

    /** @return the members at {@code ranks}, in that order ({@code MPI_Group_incl}) */
    public static int[] incl(int[] members, int[] ranks) {
        checkDistinct(members, ranks, "incl");
        int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            out[i] = members[ranks[i]];
        }
        return out;
    }

    /** @return the members not at {@code ranks}, in group order ({@code MPI_Group_excl}) */
    public static int[] excl(int[] members, int[] ranks) {
        checkDistinct(members, ranks, "excl");
        boolean[] drop = new boolean[members.length];
        for (int r : ranks) {
            drop[r] = true;
        }
        return keep(members, drop, false);
    }

    /** @return the members in the ranges {@code {first, last, stride}}, in range order ({@code MPI_Group_range_incl}) */
    public static int[] rangeIncl(int[] members, int[][] ranges) {
        return incl(members, expand(members, ranges));
    }

    /** @return the members outside the ranges, in group order ({@code MPI_Group_range_excl}) */
    public static int[] rangeExcl(int[] members, int[][] ranges) {
        return excl(members, expand(members, ranges));
    }

    /** @return {@code a}'s members, then {@code b}'s not in {@code a} */
    public static int[] union(int[] a, int[] b) {
        Set<Integer> all = new LinkedHashSet<>();
        for (int m : a) {
            all.add(m);
        }
        for (int m : b) {
            all.add(m);
        }
        return all.stream().mapToInt(Integer::intValue).toArray();
    }

    /** @return {@code a}'s members that are in {@code b}, in {@code a}'s order */
    public static int[] intersection(int[] a, int[] b) {
        return filter(a, b, true);
    }

    /** @return {@code a}'s members that are not in {@code b}, in {@code a}'s order */
    public static int[] difference(int[] a, int[] b) {
        return filter(a, b, false);
    }

    /**
     * @return for each rank of group {@code a}, its rank in group {@code b}: {@link #UNDEFINED}
     *     if it is not a member, {@link #PROC_NULL} for {@code PROC_NULL}
     */
    public static int[] translate(int[] a, int[] ranks, int[] b) {
        int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            int r = ranks[i];
            if (r == PROC_NULL) {
                out[i] = PROC_NULL;
            } else {
                checkRank(a, r, "translateRanks");
                out[i] = rankOf(b, a[r]);
            }
        }
        return out;
    }

    /** @return {@link #IDENT} (same members, same order), {@link #SIMILAR} (same members) or {@link #UNEQUAL} */
    public static int compare(int[] a, int[] b) {
        if (Arrays.equals(a, b)) {
            return IDENT;
        }
        int[] sa = a.clone();
        int[] sb = b.clone();
        Arrays.sort(sa);
        Arrays.sort(sb);
        return Arrays.equals(sa, sb) ? SIMILAR : UNEQUAL;
    }

    private static int[] filter(int[] a, int[] b, boolean in) {
        Set<Integer> other = new java.util.HashSet<>();
        for (int m : b) {
            other.add(m);
        }
        return Arrays.stream(a).filter(m -> other.contains(m) == in).toArray();
    }

    private static int[] keep(int[] members, boolean[] drop, boolean keepDropped) {
        int n = 0;
        int[] out = new int[members.length];
        for (int i = 0; i < members.length; i++) {
            if (drop[i] == keepDropped) {
                out[n++] = members[i];
            }
        }
        return Arrays.copyOf(out, n);
    }

    private static int[] expand(int[] members, int[][] ranges) {
        int[] out = new int[0];
        int n = 0;
        for (int[] range : ranges) {
            if (range == null || range.length != 3) {
                throw new MpiError(ErrorClass.ERR_ARG, "a rank range is {first, last, stride}, not "
                    + Arrays.toString(range));
            }
            int first = range[0];
            int last = range[1];
            int stride = range[2];
            if (stride == 0) {
                throw new MpiError(ErrorClass.ERR_ARG, "rank range " + Arrays.toString(range) + " has stride 0");
            }
            checkRank(members, first, "a rank range");
            checkRank(members, last, "a rank range");
            if ((last - first) / stride < 0) {
                throw new MpiError(ErrorClass.ERR_ARG, "rank range " + Arrays.toString(range)
                    + " runs away from its last rank");
            }
            for (int r = first; stride > 0 ? r <= last : r >= last; r += stride) {
                if (n == out.length) {
                    out = Arrays.copyOf(out, Math.max(4, n * 2));
                }
                out[n++] = r;
            }
        }
        return Arrays.copyOf(out, n);
    }

    private static void checkDistinct(int[] members, int[] ranks, String call) {
        boolean[] seen = new boolean[members.length];
        for (int r : ranks) {
            checkRank(members, r, call);
            if (seen[r]) {
                throw new MpiError(ErrorClass.ERR_RANK, "rank " + r + " appears twice in the ranks given to " + call);
            }
            seen[r] = true;
        }
    }

    private static void checkRank(int[] members, int r, String call) {
        if (r < 0 || r >= members.length) {
            throw new MpiError(ErrorClass.ERR_RANK, "rank " + r + " given to " + call + " is not in a group of "
                + members.length);
        }
    }
}
