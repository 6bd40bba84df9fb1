package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * MPI collectives between rank processes of the built distribution's {@code bin/polylink mpirun}:
 * a program compiled against lib/mpi/polylink-mpi.jar broadcasts, reduces, exchanges, gathers and
 * scans among four ranks over shm, and every rank gets the sequential computation's values.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MpiCollectivesIT {

    private static final Duration JOB = Duration.ofMinutes(2);

    @TempDir
    Path work;

    @Test
    void collectivesAmongFourRankProcessesGiveEveryRankTheSequentialResults() throws Exception {
        MpiJobLeftovers leftovers = new MpiJobLeftovers(work);
        Path programs = MpiPrograms.compile(work, "Collectives");
        try (MpirunProcess run = MpirunProcess.mpirun(programs, "-np", "4", "-cp", ".", "Collectives")) {
            assertEquals(0, run.awaitExit(JOB), run.output());
            assertTrue(run.output().contains("collectives: 4 ranks agree on bcast, allReduce, iAllReduce, allToAll, "
                + "gather and scan"), run.output());
            leftovers.assertNone(run.output());
        }
    }
}
