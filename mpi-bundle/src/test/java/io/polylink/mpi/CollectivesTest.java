package io.polylink.mpi;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.mpi.job.Job;
import io.polylink.mpi.job.Result;
import io.polylink.mpi.programs.coll.Matrix;
import io.polylink.mpi.programs.coll.Overlap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MPI's collectives between ranks, each in its own context, over real shm segments and tcp
 * sockets: every collective in every form and every algorithm, checked against a sequential
 * computation ({@link Matrix}), on one host and over two; and non-blocking collectives that
 * complete while their application computes ({@link Overlap}).
 */
class CollectivesTest {

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 5})
    void everyCollectiveInEveryFormAndAlgorithmMatchesASequentialComputation(int ranks) throws Exception {
        try (Job job = Job.of(ranks, Job.Methods.SHM)) {
            job.run(Matrix.class).assertSucceeded();
        }
    }

    /**
     * Ranks 0 and 2 on one host, 1 and 3 on another (and rank 4 on the first): shm within a host, tcp
     * between them, and the collectives go through a leader per host.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {4, 5})
    void ranksOnTwoHostsRunTheHierarchicalAlgorithmsWithTheSameResults(int ranks) throws Exception {
        try (Job job = Job.of(ranks, Job.Methods.SHM_AND_TCP)) {
            for (int r = 0; r < ranks; r++) {
                job.env(r, "POLYLINK_MPI_HOST", r % 2 == 0 ? "host-a" : "host-b");
            }
            job.run(Matrix.class, "hierarchical").assertSucceeded();
        }
    }

    @Test
    void nonBlockingCollectivesCompleteWhileTheApplicationComputesWithoutCallingMpi() throws Exception {
        try (Job job = Job.of(4, Job.Methods.SHM)) {
            Result result = job.run(Overlap.class).assertSucceeded();
            for (int r = 0; r < 4; r++) {
                assertTrue(result.out(r).contains("iAllReduce: result complete"), result.out(r));
                assertTrue(result.out(r).contains("iBcast: result complete"), result.out(r));
            }
        }
    }
}
