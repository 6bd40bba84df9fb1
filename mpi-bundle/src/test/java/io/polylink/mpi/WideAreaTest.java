package io.polylink.mpi;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.mpi.job.Job;
import io.polylink.mpi.job.Result;
import io.polylink.mpi.programs.InitOnly;
import io.polylink.mpi.programs.coll.WideArea;
import io.polylink.plogp.LinkModel;
import io.polylink.plogp.ModelDatabase;
import io.polylink.plogp.SizeParameters;
import io.polylink.spi.PeerLocation;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Broadcasts among ranks at three sites (each rank a host of its own, sites of three, two and one
 * ranks, over tcp): MagPIe's original without link models, its two-layer broadcast shaped by the
 * job's models with them; and models that cannot be read fail {@code MPI.Init}, naming the line.
 */
class WideAreaTest {

    private static final String[] SITES = {"lab", "lab", "lab", "cloud", "cloud", "edge"};

    private static Job sites(Job job) {
        for (int r = 0; r < SITES.length; r++) {
            job.env(r, "POLYLINK_MPI_HOST", "host-" + r).env(r, "POLYLINK_MPI_SITE", SITES[r]);
        }
        return job;
    }

    /** A wide-area link of 10 ms and 1 MB/s and a site's of 20 µs and 1 GB/s, as the MagPIe paper's. */
    static String models() {
        return ModelDatabase.of(List.of(linear(PeerLocation.OTHER_SITE, 10_000, 20, 1.0),
            linear(PeerLocation.SAME_SITE, 20, 2, 0.001))).format();
    }

    private static LinkModel linear(PeerLocation where, double latency, double gap0, double microsPerByte) {
        long big = 4L << 20;
        return new LinkModel(where, "tcp", latency, List.of(new SizeParameters(0, 1, 1, gap0, 2 * (latency + gap0)),
            new SizeParameters(big, 1, 1, gap0 + microsPerByte * big, 2 * (latency + gap0 + microsPerByte * big))),
            Instant.EPOCH, "");
    }

    @Test
    void withoutLinkModelsABroadcastAcrossSitesIsMagPIesOriginal() throws Exception {
        try (Job job = sites(Job.of(SITES.length, Job.Methods.TCP))) {
            Result r = job.run(WideArea.class, "magpie").assertSucceeded();
            assertTrue(r.out(0).contains("no link model of the links between sites (polylink plogp); "
                + "6 ranks on 6 hosts (1, 1, 1, 1, 1, 1) at 3 sites (3, 2, 1): the whole message"), r.out(0));
        }
    }

    @Test
    void withLinkModelsABroadcastAcrossSitesGoesInTheSegmentsAndTreesTheyMakeFastest() throws Exception {
        try (Job job = sites(Job.of(SITES.length, Job.Methods.TCP)).env("POLYLINK_MPI_PLOGP_MODELS", models())) {
            Result r = job.run(WideArea.class, "magpie-pipelined").assertSucceeded();
            assertTrue(r.out(0).contains("by the models of tcp between sites and tcp within them"), r.out(0));
        }
    }

    @Test
    void linkModelsThatCannotBeReadFailInitNamingTheLineAndAJobWithGoodOnesRunsAfter() throws Exception {
        try (Job job = Job.of(2, Job.Methods.TCP).env("POLYLINK_MPI_PLOGP_MODELS", "model\tsame-host\tshm\n")) {
            Result r = job.run(InitOnly.class).assertSucceeded();
            assertTrue(r.out(0).contains("Init failed: 13 MPI.Init: POLYLINK_MPI_PLOGP_MODELS (the job's link models, "
                + "which polylink mpirun takes from conf/plogp.models or --models), line 1: 3 fields where 'model LOCATION STACK L MEASURED BETWEEN' has 6"), r.out(0));
            assertTrue(r.out(0).contains("isInitialized false"), r.out(0));
        }
        try (Job job = Job.of(2, Job.Methods.TCP).env("POLYLINK_MPI_PLOGP_MODELS", models())) {
            Result r = job.run(InitOnly.class).assertSucceeded();
            assertTrue(r.out(1).contains("isFinalized true"), r.out(1));
        }
    }
}
