package io.polylink.mpi.programs.coll;

import mpi.Datatype;
import mpi.MPIException;
import mpi.UserFunction;

/**
 * A user operation that is not commutative: the product of 2 x 2 integer matrices, each element
 * of the datatype four ints in row order. Reductions with it hold only in rank order.
 */
final class Matrices extends UserFunction {

    @Override
    public void call(Object inVec, Object inOutVec, int count, Datatype datatype) throws MPIException {
        int[] a = (int[]) inVec;
        int[] b = (int[]) inOutVec;
        for (int e = 0; e < count; e++) {
            int[] p = product(a, 4 * e, b, 4 * e);
            System.arraycopy(p, 0, b, 4 * e, 4);
        }
    }

    static int[] product(int[] a, int i, int[] b, int j) {
        return new int[] {
            a[i] * b[j] + a[i + 1] * b[j + 2], a[i] * b[j + 1] + a[i + 1] * b[j + 3],
            a[i + 2] * b[j] + a[i + 3] * b[j + 2], a[i + 2] * b[j + 1] + a[i + 3] * b[j + 3]};
    }

    /** @return rank {@code rank}'s {@code count} matrices in call {@code salt}: small entries, rarely commuting */
    static int[] of(int rank, int salt, int count) {
        int[] out = new int[4 * count];
        for (int i = 0; i < out.length; i++) {
            out[i] = Math.floorMod(Data.value(rank, salt, i), 5) - 2;
        }
        return out;
    }

    /** @return the products, element by element, of ranks {@code from} to {@code to - 1}'s matrices in rank order */
    static int[] product(int from, int to, int salt, int count) {
        int[] p = of(from, salt, count);
        for (int r = from + 1; r < to; r++) {
            int[] m = of(r, salt, count);
            for (int e = 0; e < count; e++) {
                System.arraycopy(product(p, 4 * e, m, 4 * e), 0, p, 4 * e, 4);
            }
        }
        return p;
    }
}
