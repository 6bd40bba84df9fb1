package io.polylink.mpi;

import io.polylink.mpi.job.Job;
import io.polylink.mpi.programs.coll.Cases;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Random sequences of collectives, sizes and roots, each run as one job on one host or split over
 * two: whatever the algorithms chosen for the sizes and placement drawn (from nothing to past the
 * eager limit and the segments of broadcasts and reductions, flat or through the hosts' leaders),
 * every rank gets what the sequential computation gives ({@link Cases}). A few tries only: each
 * is a job of up to five ranks.
 */
class RandomCollectivesTest {

    /** @param firstHost the ranks on the first host; as many as there are, or more: all on one */
    @Property(tries = 10)
    void randomCollectivesOfRandomSizesRootsAndHostsMatchTheSequentialComputation(
            @ForAll @IntRange(min = 1, max = 5) int ranks, @ForAll @IntRange(min = 1, max = 5) int firstHost,
            @ForAll("cases") @Size(min = 1, max = 12) List<String> cases) throws Exception {
        boolean split = firstHost < ranks;
        try (Job job = Job.of(ranks, split ? Job.Methods.SHM_AND_TCP : Job.Methods.SHM)) {
            for (int r = 0; split && r < ranks; r++) {
                job.env(r, "POLYLINK_MPI_HOST", r < firstHost ? "host-a" : "host-b");
            }
            job.run(Cases.class, cases.toArray(String[]::new)).assertSucceeded();
        }
    }

    @Provide
    Arbitrary<List<String>> cases() {
        Arbitrary<String> kind = Arbitraries.of("bcast", "reduce", "allreduce", "gather", "scatter", "allgather",
            "alltoall", "scan");
        Arbitrary<Integer> count = Arbitraries.oneOf(Arbitraries.integers().between(0, 40),
            Arbitraries.integers().between(0, 70_000));
        Arbitrary<Integer> root = Arbitraries.integers().between(0, 4);
        return Combinators.combine(kind, count, root).as((k, c, r) -> k + ":" + (k.equals("alltoall") ? c / 10 : c)
            + ":" + r).list();
    }
}
