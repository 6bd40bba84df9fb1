package io.polylink.mpi.internal.coll;

import java.util.function.Supplier;

/**
 * The algorithm a collective call took, and why. The reason is put into words only when someone
 * reads it: a collective is chosen on every call, and is explained rarely.
 *
 * @param collective the MPI function, e.g. {@code MPI_Bcast}
 * @param algorithm e.g. {@code pipeline}, {@code hierarchical binomial}
 * @param why what made it the one: the size, the ranks, their hosts, the operation, a hint
 */
public record Choice(String collective, String algorithm, Supplier<String> why) {

    /** @return what made it the one */
    public String reason() {
        return why.get();
    }

    /** @return this choice, its reason led by why the algorithm the info named was not taken */
    Choice refusing(String refused) {
        return new Choice(collective, algorithm, () -> refused + "; " + why.get());
    }

    @Override
    public String toString() {
        return algorithm + " (" + reason() + ")";
    }
}
