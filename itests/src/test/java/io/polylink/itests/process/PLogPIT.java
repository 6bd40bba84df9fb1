package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.plogp.LinkModel;
import io.polylink.plogp.ModelDatabase;
import io.polylink.spi.PeerLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/polylink plogp} of the built distribution: two rank processes measure shm and tcp
 * between them, the tables are printed, both models are merged into a model file that already
 * holds another, and the chart is drawn; a model file that cannot be read stops the command before
 * it measures anything, naming the file and the line. {@code polylink mpirun --models} gives every
 * rank the models, and models that cannot be read fail the job's {@code MPI.Init}, naming the line.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PLogPIT {

    private static final Duration JOB = Duration.ofMinutes(2);

    @TempDir
    Path work;

    @Test
    void twoRankProcessesMeasureEachStackIntoTheModelFileAndTheChart() throws Exception {
        Path db = work.resolve("conf/plogp.models");
        LinkModel earlier = new LinkModel(PeerLocation.OTHER_SITE, "lz4/tcp", 5000,
            List.of(new io.polylink.plogp.SizeParameters(0, 10, 10, 100, 10_200)), java.time.Instant.EPOCH, "x - y");
        ModelDatabase.of(List.of(earlier)).write(db);
        try (MpiJobLeftovers leftovers = new MpiJobLeftovers(work);
             MpirunProcess run = MpirunProcess.shell(work, "\"$POLYLINK_HOME/bin/polylink\" plogp --tmpdir tmp "
                 + "--stacks shm,tcp --max-size 1m --time-ms 10 --warmup-ms 500 --db conf/plogp.models "
                 + "--svg plogp.svg")) {
            assertEquals(0, run.awaitExit(JOB), run.output());
            String out = run.output();
            for (String stack : List.of("shm", "tcp")) {
                assertTrue(out.contains("P-LogP of " + stack + ", same-host"), out);
            }
            assertTrue(out.contains("models: conf/plogp.models (2 measured, 3 in all)"), out);
            ModelDatabase models = ModelDatabase.read(db);
            assertEquals(earlier, models.find(PeerLocation.OTHER_SITE, "lz4/tcp").orElseThrow(), "kept as it was");
            for (String stack : List.of("shm", "tcp")) {
                LinkModel m = models.find(PeerLocation.SAME_HOST, stack).orElseThrow();
                assertEquals(22, m.sizes().size(), "0 and every power of two from 1 B to 1 MiB");
                // A megabyte takes longer than the quickest of the sizes up to 1 KiB. Not than 1 B alone:
                // a size's window is 10 ms, and in full runs of the suite one such window fell whole in a
                // stall of the machine (1 B round trips of 1.1 and 3.2 ms, where 0 and 2 B took 1.2 and 10 µs;
                // a 1 B gap of 105 µs, where 0 and 2 B had 0.44 and 0.49).
                List<io.polylink.plogp.SizeParameters> small = m.sizes().subList(0, 12);
                double quickest = small.stream().mapToDouble(io.polylink.plogp.SizeParameters::roundTrip).min()
                    .orElseThrow();
                double narrowest = small.stream().mapToDouble(io.polylink.plogp.SizeParameters::gap).min()
                    .orElseThrow();
                assertTrue(m.gap(1 << 20) > narrowest && m.sizes().get(21).roundTrip() > quickest, m::toString);
            }
            String svg = Files.readString(work.resolve("plogp.svg"));
            assertTrue(svg.startsWith("<svg") && svg.contains("<polyline") && svg.contains(">shm, same-host<")
                && svg.contains(">tcp, same-host<"), svg);
            leftovers.assertNone(out);
        }
    }

    @Test
    void aModelFileThatCannotBeReadStopsTheMeasurementNamingItsLine() throws Exception {
        Path db = work.resolve("broken.models");
        Files.writeString(db, "model\tsame-host\tshm\n");
        try (MpiJobLeftovers leftovers = new MpiJobLeftovers(work);
             MpirunProcess run = MpirunProcess.shell(work, "\"$POLYLINK_HOME/bin/polylink\" plogp --tmpdir tmp "
                 + "--db broken.models")) {
            assertEquals(2, run.awaitExit(JOB), run.output());
            String out = run.output();
            assertTrue(out.contains("polylink plogp: broken.models, line 1: 3 fields where 'model LOCATION STACK L "
                + "MEASURED BETWEEN' has 6"), out);
            assertTrue(!out.contains("P-LogP of"), out);
            assertEquals("model\tsame-host\tshm\n", Files.readString(db), "left as it was");
            leftovers.assertNone(out);
        }
    }

    @Test
    void mpirunGivesEveryRankTheModelsAndModelsThatCannotBeReadFailInit() throws Exception {
        Path programs = MpiPrograms.compile(work, "Models");
        ModelDatabase.of(List.of(new LinkModel(PeerLocation.OTHER_SITE, "tcp", 5000,
            List.of(new io.polylink.plogp.SizeParameters(0, 10, 10, 100, 10_200)), java.time.Instant.EPOCH, "x - y")))
            .write(work.resolve("good.models"));
        try (MpiJobLeftovers leftovers = new MpiJobLeftovers(work);
             MpirunProcess run = MpirunProcess.mpirun(programs, "-np", "2", "--models", "good.models", "-cp", ".",
                 "Models")) {
            assertEquals(0, run.awaitExit(JOB), run.output());
            String out = run.output();
            for (int r = 0; r < 2; r++) {
                assertTrue(out.contains("rank " + r + ": 5 lines of link models"), out);
            }
            leftovers.assertNone(out);
        }
        Files.writeString(work.resolve("bad.models"), "size\t0\t1\t1\t1\t1\n");
        try (MpiJobLeftovers leftovers = new MpiJobLeftovers(work);
             MpirunProcess run = MpirunProcess.mpirun(programs, "-np", "2", "--models", "bad.models", "-cp", ".",
                 "Models")) {
            assertTrue(run.awaitExit(JOB) != 0, run.output());
            String out = run.output();
            assertTrue(out.contains("POLYLINK_MPI_PLOGP_MODELS (the job's link models, which polylink mpirun takes from "
                + "conf/plogp.models or --models), line 1: a size before any model"), out);
            leftovers.assertNone(out);
        }
    }
}
