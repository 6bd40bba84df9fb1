package io.polylink.mpi.internal.coll;

/**
 * The algorithm a collective call took, and why.
 *
 * @param collective the MPI function, e.g. {@code MPI_Bcast}
 * @param algorithm e.g. {@code pipeline}, {@code hierarchical binomial}
 * @param reason what made it the one: the size, the ranks, their hosts, the operation, a hint
 */
public record Choice(String collective, String algorithm, String reason) {

    /** @return this choice, its reason led by why the algorithm the info named was not taken */
    Choice refusing(String why) {
        return new Choice(collective, algorithm, why + "; " + reason);
    }

    @Override
    public String toString() {
        return algorithm + " (" + reason + ")";
    }
}
