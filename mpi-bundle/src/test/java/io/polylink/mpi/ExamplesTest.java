package io.polylink.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.mpi.job.Job;
import io.polylink.mpi.job.Result;
import io.polylink.mpi.programs.Connectivity;
import io.polylink.mpi.programs.Hello;
import io.polylink.mpi.programs.Ring;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Programs in the style of Open MPI's Java examples, run unchanged over each method. */
class ExamplesTest {

    @ParameterizedTest
    @EnumSource(value = Job.Methods.class, names = {"TCP", "SHM"})
    void helloRunsOnEveryRank(Job.Methods methods) throws Exception {
        try (Job job = Job.of(3, methods)) {
            Result r = job.run(Hello.class).assertSucceeded();
            for (int rank = 0; rank < 3; rank++) {
                assertTrue(r.out(rank).startsWith("Hello from rank " + rank + " of 3 on "), r.out(rank));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Job.Methods.class, names = {"TCP", "SHM"})
    void ringPassesTheCounterRoundUntilZero(Job.Methods methods) throws Exception {
        try (Job job = Job.of(4, methods)) {
            Result r = job.run(Ring.class, "5").assertSucceeded();
            assertTrue(r.out(0).contains("rank 0 lowered the counter to 0"), r.out(0));
            assertTrue(r.out(0).contains("rank 0 saw 5 laps"), r.out(0));
            for (int rank = 0; rank < 4; rank++) {
                assertTrue(r.out(rank).contains("rank " + rank + " leaves the ring"), r.out(rank));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Job.Methods.class, names = {"TCP", "SHM_AND_TCP"})
    void connectivityChecksEveryPair(Job.Methods methods) throws Exception {
        try (Job job = Job.of(4, methods)) {
            Result r = job.run(Connectivity.class, "-v").assertSucceeded();
            assertTrue(r.out(0).contains("Connectivity of 4 ranks: every pair passed"), r.out(0));
            assertEquals(3, r.out(2).lines().filter(l -> l.startsWith("checked")).count(), r.out(2));
        }
    }
}
