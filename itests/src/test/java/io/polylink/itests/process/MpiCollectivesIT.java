package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * MPI collectives between rank processes of the built distribution's {@code bin/polylink mpirun}:
 * a program compiled against lib/mpi/polylink-mpi.jar broadcasts, reduces, exchanges, gathers and
 * scans among four ranks over shm, and every rank gets the sequential computation's values; with
 * {@code --explain}, rank 0 says once which algorithm each collective takes and why.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MpiCollectivesIT {

    private static final Duration JOB = Duration.ofMinutes(2);

    @TempDir
    Path work;

    @Test
    void collectivesAmongFourRankProcessesGiveEveryRankTheSequentialResults() throws Exception {
        Path programs = MpiPrograms.compile(work, "Collectives");
        try (MpiJobLeftovers leftovers = new MpiJobLeftovers(work);
             MpirunProcess run = MpirunProcess.mpirun(programs, "-np", "4", "--explain", "--output", "rank-prefix",
                "-cp", ".", "Collectives")) {
            assertEquals(0, run.awaitExit(JOB), run.output());
            String out = run.output();
            assertTrue(out.contains("[0] collectives: 4 ranks agree on bcast, allReduce, iAllReduce, allToAll, "
                + "gather and scan"), out);
            assertExplained(out);
            leftovers.assertNone(out);
        }
    }

    /** Each collective the program calls is explained by rank 0 alone, with its algorithm and reason, once. */
    private static void assertExplained(String out) {
        Pattern explained = Pattern.compile("^\\[(\\d+)\\] polylink mpi: MPI_COMM_WORLD: (MPI_[A-Za-z]+) .+ by .+ \\(.+\\)$");
        List<String> seen = new ArrayList<>();
        out.lines().forEach(line -> {
            Matcher m = explained.matcher(line);
            if (m.matches()) {
                assertEquals("0", m.group(1), "only rank 0 explains a collective:\n" + out);
                seen.add(line);
            }
        });
        for (String call : List.of("MPI_Bcast", "MPI_Allreduce", "MPI_Alltoall", "MPI_Gather", "MPI_Scan")) {
            assertTrue(seen.stream().anyMatch(l -> l.contains(" " + call + " of ")), call + " is not explained:\n" + out);
        }
        assertEquals(seen.stream().distinct().count(), seen.size(), "a choice explained twice:\n" + out);
    }
}
