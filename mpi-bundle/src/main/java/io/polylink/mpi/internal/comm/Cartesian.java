package io.polylink.mpi.internal.comm;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Cartesian topology: ranks laid out in row-major order on a grid of {@code dims}, each
 * dimension periodic or not ({@code MPI_Cart_create} with no reordering).
 */
public final class Cartesian {

    private final int[] dims;
    private final boolean[] periods;

    /**
     * @throws MpiError {@code ERR_DIMS} if a dimension is not positive, {@code ERR_ARG} if the
     *     arrays differ in length
     */
    public Cartesian(int[] dims, boolean[] periods) {
        if (dims.length != periods.length) {
            throw new MpiError(ErrorClass.ERR_ARG, dims.length + " dimensions but " + periods.length + " periods");
        }
        for (int d : dims) {
            if (d <= 0) {
                throw new MpiError(ErrorClass.ERR_DIMS, "a Cartesian dimension of " + d + " in " + Arrays.toString(dims)
                    + "; each must be positive");
            }
        }
        this.dims = dims.clone();
        this.periods = periods.clone();
    }

    /** @return the number of ranks on the grid */
    public int size() {
        long n = 1;
        for (int d : dims) {
            n *= d;
        }
        return (int) Math.min(n, Integer.MAX_VALUE);
    }

    public int[] dims() {
        return dims.clone();
    }

    public boolean[] periods() {
        return periods.clone();
    }

    /** @return the coordinates of {@code rank} */
    public int[] coords(int rank) {
        if (rank < 0 || rank >= size()) {
            throw new MpiError(ErrorClass.ERR_RANK, "rank " + rank + " is not on a grid of " + size());
        }
        int[] c = new int[dims.length];
        for (int i = dims.length - 1; i >= 0; i--) {
            c[i] = rank % dims[i];
            rank /= dims[i];
        }
        return c;
    }

    /**
     * @return the rank at {@code coords}; along periodic dimensions coordinates wrap around
     * @throws MpiError {@code ERR_ARG} if a coordinate is outside a non-periodic dimension
     */
    public int rank(int[] coords) {
        if (coords.length != dims.length) {
            throw new MpiError(ErrorClass.ERR_ARG, coords.length + " coordinates for a grid of " + dims.length
                + " dimensions");
        }
        int rank = 0;
        for (int i = 0; i < dims.length; i++) {
            int c = coords[i];
            if (periods[i]) {
                c = Math.floorMod(c, dims[i]);
            } else if (c < 0 || c >= dims[i]) {
                throw new MpiError(ErrorClass.ERR_ARG, "coordinate " + c + " is outside non-periodic dimension " + i
                    + " of size " + dims[i]);
            }
            rank = rank * dims[i] + c;
        }
        return rank;
    }

    /**
     * @return {source, destination} of a shift of {@code rank} by {@code displacement} along
     *     {@code direction}: {@code PROC_NULL} past the edge of a non-periodic dimension
     */
    public int[] shift(int rank, int direction, int displacement) {
        if (direction < 0 || direction >= dims.length) {
            throw new MpiError(ErrorClass.ERR_ARG, "direction " + direction + " of a grid of " + dims.length
                + " dimensions");
        }
        int[] c = coords(rank);
        return new int[] {neighbour(c, direction, -displacement), neighbour(c, direction, displacement)};
    }

    private int neighbour(int[] coords, int direction, int by) {
        int[] c = coords.clone();
        long to = (long) c[direction] + by;
        if (periods[direction]) {
            c[direction] = (int) Math.floorMod(to, (long) dims[direction]);
        } else if (to < 0 || to >= dims[direction]) {
            return Groups.PROC_NULL;
        } else {
            c[direction] = (int) to;
        }
        return rank(c);
    }

    /** @return the grid of the dimensions that {@code remain} keeps */
    public Cartesian sub(boolean[] remain) {
        if (remain.length != dims.length) {
            throw new MpiError(ErrorClass.ERR_ARG, remain.length + " flags for a grid of " + dims.length + " dimensions");
        }
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < dims.length; i++) {
            if (remain[i]) {
                kept.add(i);
            }
        }
        int[] d = new int[kept.size()];
        boolean[] p = new boolean[kept.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = dims[kept.get(i)];
            p[i] = periods[kept.get(i)];
        }
        return new Cartesian(d, p);
    }

    /** @return the rank of {@code rank}'s slice among the slices {@code remain} cuts: the split colour for {@link #sub} */
    public int slice(int rank, boolean[] remain) {
        int[] c = coords(rank);
        int colour = 0;
        for (int i = 0; i < dims.length; i++) {
            if (!remain[i]) {
                colour = colour * dims[i] + c[i];
            }
        }
        return colour;
    }

    /**
     * Fills the zero entries of {@code dims} with factors of {@code nodes} as balanced as they
     * can be, in non-increasing order ({@code MPI_Dims_create}).
     *
     * @throws MpiError {@code ERR_DIMS} if {@code nodes} is not positive, an entry is negative, or
     *     the entries given do not divide {@code nodes}
     */
    public static void fillDims(int nodes, int[] dims) {
        if (nodes <= 0) {
            throw new MpiError(ErrorClass.ERR_DIMS, "createDims needs a positive number of nodes, not " + nodes);
        }
        long fixed = 1;
        int free = 0;
        for (int d : dims) {
            if (d < 0) {
                throw new MpiError(ErrorClass.ERR_DIMS, "createDims: negative dimension in " + Arrays.toString(dims));
            }
            if (d == 0) {
                free++;
            } else {
                fixed *= d;
            }
        }
        if (nodes % fixed != 0) {
            throw new MpiError(ErrorClass.ERR_DIMS, "createDims: the given dimensions " + Arrays.toString(dims)
                + " do not divide " + nodes + " nodes");
        }
        if (free == 0) {
            if (fixed != nodes) {
                throw new MpiError(ErrorClass.ERR_DIMS, "createDims: dimensions " + Arrays.toString(dims) + " hold "
                    + fixed + " nodes, not " + nodes);
            }
            return;
        }
        int[] filled = new int[free];
        Arrays.fill(filled, 1);
        List<Integer> factors = primeFactors((int) (nodes / fixed));
        for (int i = factors.size() - 1; i >= 0; i--) {
            int smallest = 0;
            for (int j = 1; j < free; j++) {
                if (filled[j] < filled[smallest]) {
                    smallest = j;
                }
            }
            filled[smallest] *= factors.get(i);
        }
        Arrays.sort(filled);
        int next = free - 1;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] == 0) {
                dims[i] = filled[next--];
            }
        }
    }

    private static List<Integer> primeFactors(int n) {
        List<Integer> factors = new ArrayList<>();
        for (int p = 2; (long) p * p <= n; p++) {
            while (n % p == 0) {
                factors.add(p);
                n /= p;
            }
        }
        if (n > 1) {
            factors.add(n);
        }
        return factors;
    }
}
