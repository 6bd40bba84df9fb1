package io.polylink.mpi;

import io.polylink.mpi.job.Job;
import io.polylink.mpi.programs.Locations;
import io.polylink.mpi.programs.Measurements;
import org.junit.jupiter.api.Test;

/** P-LogP models measured between ranks, and the locations they are keyed by. */
class PLogPTest {

    @Test
    void aMeasurementBetweenTwoRanksOfThreeGivesBothTheModelOfTheStackTheirCommunicatorPins() throws Exception {
        try (Job job = Job.of(3, Job.Methods.SHM_AND_TCP)) {
            job.run(Measurements.class, "shm", "tcp").assertSucceeded();
        }
    }

    @Test
    void aCommunicatorSaysHowFarEachOfItsRanksRunsByHostAndSite() throws Exception {
        try (Job job = Job.of(4, Job.Methods.TCP)) {
            String[] hosts = {"host-a", "host-b", "host-c", "host-a"};
            for (int r = 0; r < 4; r++) {
                job.env(r, "POLYLINK_MPI_HOST", hosts[r]);
            }
            job.env(0, "POLYLINK_MPI_SITE", "lab").env(1, "POLYLINK_MPI_SITE", "lab").env(3, "POLYLINK_MPI_SITE", "lab");
            job.run(Locations.class).assertSucceeded();
        }
    }
}
