package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/polylink mpirun} from the built distribution: programs compiled against
 * lib/mpi/polylink-mpi.jar run as jobs of rank JVMs; a failing rank, an abort, Ctrl-C and a rank
 * killed with -9 end the job as documented, and no job leaves a process or a file.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class MpirunIT {

    private static final Duration JOB = Duration.ofMinutes(2);

    @TempDir
    Path work;

    private MpiJobLeftovers leftovers;

    @BeforeEach
    void watchLeftovers() throws Exception {
        leftovers = new MpiJobLeftovers(work);
    }

    @AfterEach
    void stopWatching() throws Exception {
        leftovers.close();
    }

    @Test
    void theDocumentedRingCompilesAgainstLibMpiAndRunsOnFourRanks() throws Exception {
        String mpirun = MpiPrograms.documentedRing(work);
        try (MpirunProcess ring = MpirunProcess.shell(work, mpirun)) {
            assertEquals(0, ring.awaitExit(JOB), ring.output());
            MpiPrograms.assertDocumentedRingOutput(ring.output());
            leftovers.assertNone(ring.output());
        }
    }

    @Test
    void helloPrefixesEveryLineWithItsRankAndExplainsEveryPair() throws Exception {
        Path programs = MpiPrograms.compile(work, "Hello");
        try (MpirunProcess run = MpirunProcess.mpirun(programs, "-n", "3", "--output", "rank-prefix", "--explain",
                "-cp", ".", "Hello")) {
            assertEquals(0, run.awaitExit(JOB), run.output());
            String out = run.output();
            for (int r = 0; r < 3; r++) {
                assertTrue(out.lines().anyMatch(("[" + r + "] hello from rank " + r + " of 3")::equals), out);
                assertTrue(out.contains("[" + r + "] polylink mpi: rank " + r + " shares its direct buffers of more than "
                    + "65536 bytes with the ranks on its host through /dev/shm/"), out);
                for (int other = 0; other < 3; other++) {
                    if (other != r) {
                        assertTrue(out.contains("[" + r + "] polylink mpi: rank " + r + " reaches rank " + other
                            + " by shm: local refused (other context); shm chosen (same host"), out);
                    }
                }
            }
            assertTrue(out.lines().allMatch(line -> line.matches("\\[[0-2]] .*")), "a line without its rank:\n" + out);
            leftovers.assertNone(out);
        }
    }

    @Test
    void aRankReadsALargeMessageWhereTheSendingRanksSharedBufferLies() throws Exception {
        Path programs = MpiPrograms.compile(work, "SharedBuffers");
        try (MpirunProcess run = MpirunProcess.mpirun(programs, "-np", "2", "-cp", ".", "SharedBuffers")) {
            assertEquals(0, run.awaitExit(JOB), run.output());
            assertTrue(run.output().contains("shared buffers: 4194304 bytes and 300000 doubles read where rank 0's "
                + "buffers lie"), run.output());
            leftovers.assertNone(run.output());
        }
    }

    @Test
    void everyPairConnectsOverShmAndOverTcpAlone() throws Exception {
        Path programs = MpiPrograms.compile(work, "Connectivity");
        try (MpirunProcess shm = MpirunProcess.mpirun(programs, "-np", "4", "-cp", ".", "Connectivity")) {
            assertEquals(0, shm.awaitExit(JOB), shm.output());
            assertTrue(shm.output().contains("connectivity: 6 pairs of 4 ranks reach each other; rank 0 by "
                + "local,shm,shm,shm"), shm.output());
        }
        try (MpirunProcess tcp = MpirunProcess.mpirun(programs, "-np", "3", "--methods", "tcp", "-cp", ".",
                "Connectivity")) {
            assertEquals(0, tcp.awaitExit(JOB), tcp.output());
            assertTrue(tcp.output().contains("connectivity: 3 pairs of 3 ranks reach each other; rank 0 by "
                + "local,tcp,tcp"), tcp.output());
            leftovers.assertNone(tcp.output());
        }
    }

    @Test
    void aJarRunsItsMainClass() throws Exception {
        Path programs = MpiPrograms.compile(work, "Hello");
        Path jar = work.resolve("hello.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "Hello");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            out.putNextEntry(new JarEntry("Hello.class"));
            out.write(Files.readAllBytes(programs.resolve("Hello.class")));
        }
        try (MpirunProcess run = MpirunProcess.mpirun(work, "-np", "2", "-jar", jar.toString())) {
            assertEquals(0, run.awaitExit(JOB), run.output());
            assertTrue(run.output().contains("hello from rank 1 of 2"), run.output());
            leftovers.assertNone(run.output());
        }
    }

    @Test
    void aFailingRanksExitCodeIsTheJobsAndTheRankIsNamed() throws Exception {
        Path programs = MpiPrograms.compile(work, "ExitCode");
        try (MpirunProcess run = MpirunProcess.mpirun(programs, "-np", "3", "-cp", ".", "ExitCode", "2", "5")) {
            assertEquals(5, run.awaitExit(JOB), run.output());
            String out = run.output();
            assertTrue(out.contains("rank 2 exits with code 5"), out);
            assertTrue(out.matches("(?s).*polylink mpirun: job j[0-9a-f]{12} failed: rank 2 exited with code 5\n.*"), out);
            // the others, waiting for rank 2, learned it is gone
            assertTrue(out.contains("rank 2 of the job is gone"), out);
            leftovers.assertNone(out);
        }
    }

    @Test
    void abortEndsEveryRankWithItsCodeAndNamesTheRankThatAborted() throws Exception {
        Path programs = MpiPrograms.compile(work, "Abort");
        try (MpirunProcess run = MpirunProcess.mpirun(programs, "-np", "4", "-cp", ".", "Abort")) {
            assertEquals(3, run.awaitExit(JOB), run.output());
            String out = run.output();
            assertTrue(out.contains("failed: rank 1 aborted it with code 3: MPI_Abort called"), out);
            assertFalse(out.contains("Exception in thread"), "the ranks end quietly, the abort said:\n" + out);
            // A rank that received the abort while it waited in a receive ends by itself.
            assertFalse(out.contains("still running"), "every rank ends on the abort, not when stopped:\n" + out);
            leftovers.assertNone(out);
        }
    }

    @Test
    void ctrlCStopsEveryRankAndRemovesEveryFile() throws Exception {
        Path programs = MpiPrograms.compile(work, "WaitForever");
        try (MpirunProcess run = MpirunProcess.mpirun(programs, "-np", "3", "-cp", ".", "WaitForever")) {
            for (int r = 0; r < 3; r++) {
                run.awaitMatch("^rank " + r + " pid \\d+ waits$", JOB);
            }
            assertEquals(3, leftovers.ranks().size(), "the ranks run:\n" + run.output());
            run.interrupt();
            assertEquals(130, run.awaitExit(JOB), "the exit status of SIGINT:\n" + run.output());
            String out = run.output();
            assertTrue(out.contains("polylink mpirun: interrupted; stopping 3 ranks"), out);
            leftovers.assertNone(out);
        }
    }

    @Test
    void aRankKilledWithSigkillFailsTheOthersWithinSecondsNamingIt() throws Exception {
        Path programs = MpiPrograms.compile(work, "Survivors");
        try (MpirunProcess run = MpirunProcess.mpirun(programs, "-np", "5", "-cp", ".", "Survivors")) {
            long victim = Long.parseLong(run.awaitMatch("^rank 1 pid (\\d+) waits$", JOB).group(1));
            long killed = System.nanoTime();
            ProcessHandle.of(victim).orElseThrow().destroyForcibly();
            for (int survivor : new int[] {0, 2, 3, 4}) {
                Matcher told = run.awaitMatch("^rank " + survivor + " was told \\(error class 74\\): (.*)$",
                    Duration.ofSeconds(8));
                assertTrue(told.group(1).contains("rank 1 of the job is gone"), told.group());
            }
            // within seconds: the launcher stops ranks only 10 s after the first one failed
            double seconds = (System.nanoTime() - killed) / 1e9;
            assertTrue(seconds < 8, "the survivors were told " + seconds + " s after the kill:\n" + run.output());
            assertEquals(137, run.awaitExit(JOB), run.output());
            String out = run.output();
            assertTrue(out.contains("failed: rank 1 exited with code 137, as a process killed by signal 9 (KILL) does"),
                out);
            assertFalse(out.contains("still running"), "no rank had to be stopped:\n" + out);
            leftovers.assertNone(out);
        }
    }

    @Test
    void helpDocumentsEveryOptionAndAWrongCommandLineExitsWithTwo() throws Exception {
        try (MpirunProcess help = MpirunProcess.mpirun(work, "--help")) {
            assertEquals(0, help.awaitExit(JOB), help.output());
            String out = help.output();
            for (String option : List.of("-np N, -n N", "-cp PATH", "-jar JAR", "--output MODE", "rank-prefix",
                    "--explain", "--methods LIST", "--transforms LIST", "--registry DIR", "--tmpdir DIR", "--help",
                    "POLYLINK_MPI_JAVA_OPTS", "Exit status")) {
                assertTrue(out.contains(option), "--help does not mention " + option + ":\n" + out);
            }
        }
        try (MpirunProcess unknown = MpirunProcess.mpirun(work, "-np", "2", "--bogus", "-y", "Hello")) {
            assertEquals(2, unknown.awaitExit(JOB), unknown.output());
            assertTrue(unknown.output().contains("unknown options '--bogus', '-y'"), unknown.output());
        }
        try (MpirunProcess noRanks = MpirunProcess.mpirun(work, "Hello")) {
            assertEquals(2, noRanks.awaitExit(JOB), noRanks.output());
            assertTrue(noRanks.output().contains("how many ranks? give -np N"), noRanks.output());
        }
        leftovers.assertNone("");
    }
}
