package io.polylink.mpi.internal.coll;

import java.util.List;

/** The collectives whose algorithm a communicator's info may choose, with the algorithms each has. */
public enum Collective {
    BARRIER("MPI_Barrier", "barrier", "tree", "dissemination", HostArea.ALGORITHM),
    BCAST("MPI_Bcast", "bcast", "binomial", "pipeline", "segmented-binomial", Broadcast.LINEAR, Broadcast.MAGPIE,
        Broadcast.MAGPIE_PIPELINED, HostArea.ALGORITHM),
    GATHER("MPI_Gather", "gather", "linear", "binomial", "hierarchical"),
    SCATTER("MPI_Scatter", "scatter", "linear", "binomial", "hierarchical"),
    ALLGATHER("MPI_Allgather", "allgather", "ring", "recursive-doubling", "hierarchical"),
    ALLTOALL("MPI_Alltoall", "alltoall", "bruck", "pairwise", "linear", "hierarchical"),
    REDUCE("MPI_Reduce", "reduce", "binomial", "pipeline", "segmented-binomial"),
    ALLREDUCE("MPI_Allreduce", "allreduce", "recursive-doubling", "rabenseifner", "ring", HostArea.ALGORITHM),
    REDUCE_SCATTER("MPI_Reduce_scatter", "reducescatter", "ring", "reduce-scatterv"),
    SCAN("MPI_Scan", "scan", "recursive-doubling"),
    NEIGHBOR("MPI_Neighbor_*", "neighbor", "linear");

    /**
     * The algorithm of the collectives that have one leader per host gather, scatter or exchange
     * their host's blocks, as an algorithm of its own rather than a shape of another's.
     */
    public static final String HIERARCHICAL = "hierarchical";

    private final String function;
    private final String key;
    private final List<String> algorithms;

    Collective(String function, String key, String... algorithms) {
        this.function = function;
        this.key = key;
        this.algorithms = List.of(algorithms);
    }

    /** @return the MPI function, e.g. {@code MPI_Bcast} */
    public String function() {
        return function;
    }

    /** @return its name in info keys and in {@value Tuning#CHOICES}, e.g. {@code bcast} */
    public String key() {
        return key;
    }

    /**
     * @return the algorithm {@code t} names for this collective, or {@code null} to choose per call:
     *     {@value #HIERARCHICAL} is not taken when {@code t} turns the hierarchy off
     */
    String forced(Tuning t) {
        String forced = t.forced(this);
        return HIERARCHICAL.equals(forced) && !t.hierarchy() ? null : forced;
    }

    /** @return the names of its algorithms */
    public List<String> algorithms() {
        return algorithms;
    }
}
