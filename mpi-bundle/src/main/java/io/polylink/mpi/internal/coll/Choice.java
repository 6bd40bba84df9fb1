package io.polylink.mpi.internal.coll;

import java.util.function.Supplier;

/**
 * The algorithm a collective call took, and why. The reason is put into words only when someone
 * reads it: a collective is chosen on every call, and is explained rarely.
 *
 * @param collective the MPI function, e.g. {@code MPI_Bcast}
 * @param algorithm e.g. {@code pipeline}, {@code hierarchical binomial}
 * @param why what made it the one: the size, the ranks, their hosts, the operation, a hint
 * @param shape the segment size and tree degrees a wide-area algorithm was planned with, or {@code null}
 */
public record Choice(String collective, String algorithm, Supplier<String> why, WideAreaCost.Shape shape) {

    /** A choice of an algorithm that has no parameters of its own. */
    public Choice(String collective, String algorithm, Supplier<String> why) {
        this(collective, algorithm, why, null);
    }

    /** @return what made it the one */
    public String reason() {
        return why.get();
    }

    /** @return this choice, its reason led by why the algorithm the info named was not taken */
    Choice refusing(String refused) {
        return new Choice(collective, algorithm, () -> refused + "; " + why.get(), shape);
    }

    @Override
    public String toString() {
        return algorithm + " (" + reason() + ")";
    }
}
