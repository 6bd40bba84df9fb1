package io.polylink.mpi;

import io.polylink.mpi.job.Job;
import io.polylink.mpi.programs.Communicators;
import io.polylink.mpi.programs.Datatypes;
import io.polylink.mpi.programs.Environment;
import org.junit.jupiter.api.Test;

/** Communicators, groups, topologies, datatypes and the environment, on ranks in contexts of their own. */
class CommunicatorsTest {

    @Test
    void communicatorAndGroupAlgebraAgreeAcrossFiveRanks() throws Exception {
        try (Job job = Job.of(5, Job.Methods.SHM_AND_TCP)) {
            job.run(Communicators.class).assertSucceeded();
        }
    }

    @Test
    void derivedDatatypesPlaceEveryElementWhereTheirLayoutSays() throws Exception {
        try (Job job = Job.of(2, Job.Methods.TCP)) {
            job.run(Datatypes.class).assertSucceeded();
        }
    }

    @Test
    void theEnvironmentAndBarriersBehaveAsTheBindingsSay() throws Exception {
        try (Job job = Job.of(3, Job.Methods.SHM)) {
            job.run(Environment.class).assertSucceeded();
        }
    }
}
