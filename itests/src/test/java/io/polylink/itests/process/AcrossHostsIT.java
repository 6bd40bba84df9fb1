package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.plogp.LinkModel;
import io.polylink.plogp.ModelDatabase;
import io.polylink.spi.PeerLocation;
import io.polylink.testkit.NetworkNamespaces;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code polylink mpirun} across two hosts of a LAN, each a network namespace this test makes
 * (with a machine id of its own) and enters by {@code --launcher 'ip netns exec {host}'}: ranks on
 * one host reach each other by shm and the others by tcp, saying why; the Ring and Connectivity
 * programs run across them; a hostfile's sites reach the ranks; a host torn down mid-job ends the job
 * within seconds naming it, and leaves no process; a rank that cannot start fails the job naming its
 * host; {@code polylink plogp} measures the link between two hosts. Skipped, saying why,
 * where namespaces cannot be made.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class AcrossHostsIT {

    private static final Duration JOB = Duration.ofMinutes(2);
    private static NetworkNamespaces lan;

    @TempDir
    Path work;

    private MpiJobLeftovers leftovers;

    @BeforeAll
    static void makeTwoHosts() throws Exception {
        String unavailable = NetworkNamespaces.unavailable();
        if (unavailable != null) {
            System.out.println("AcrossHostsIT skipped: " + unavailable);
        }
        Assumptions.assumeTrue(unavailable == null, () -> "network namespaces cannot be made here: " + unavailable);
        lan = NetworkNamespaces.create(2);
    }

    @AfterAll
    static void removeHosts() throws Exception {
        if (lan != null) {
            lan.close();
        }
    }

    @BeforeEach
    void watchLeftovers() throws Exception {
        leftovers = new MpiJobLeftovers(work);
    }

    @AfterEach
    void stopWatching() throws Exception {
        leftovers.close();
    }

    private MpirunProcess acrossHosts(Path programs, String... args) throws Exception {
        List<String> all = new java.util.ArrayList<>(List.of("--host", lan.host(0) + ":2," + lan.host(1) + ":2",
            "--launcher", "ip netns exec {host}"));
        all.addAll(List.of(args));
        return MpirunProcess.mpirun(programs, all.toArray(String[]::new));
    }

    @Test
    void ranksOnOneHostTakeShmAndAcrossHostsTcpSayingWhyAndEveryPairConnects() throws Exception {
        Path programs = MpiPrograms.compile(work, "Connectivity");
        try (MpirunProcess run = acrossHosts(programs, "--explain", "--output", "rank-prefix", "-cp", ".",
                "Connectivity")) {
            assertEquals(0, run.awaitExit(JOB), run.output());
            String out = run.output();
            assertTrue(out.contains("[0] connectivity: 6 pairs of 4 ranks reach each other; rank 0 by local,shm,tcp,tcp"),
                out);
            for (int[] pair : new int[][] {{0, 1}, {1, 0}, {2, 3}, {3, 2}}) {
                assertTrue(out.contains("[" + pair[0] + "] polylink mpi: rank " + pair[0] + " reaches rank " + pair[1]
                    + " by shm: local refused (other context); shm chosen (same host"), out);
            }
            for (int[] pair : new int[][] {{0, 2}, {1, 3}, {2, 0}, {3, 1}}) {
                String other = lan.address(pair[1] / 2);
                assertTrue(out.contains("[" + pair[0] + "] polylink mpi: rank " + pair[0] + " reaches rank " + pair[1]
                    + " by tcp: local refused (other context); shm refused (other host (machine "), out);
                assertTrue(out.lines().anyMatch(l -> l.startsWith("[" + pair[0] + "] polylink mpi: rank " + pair[0]
                    + " reaches rank " + pair[1] + " by tcp") && l.contains("tcp chosen (reachable at " + other + ":")),
                    "rank " + pair[0] + " reaches rank " + pair[1] + " at its host's address " + other + ":\n" + out);
            }
            leftovers.assertNone(out);
        }
    }

    @Test
    void aHostfileGivesEachHostItsSiteAndExplainSaysWhereEachRankRuns() throws Exception {
        Path programs = MpiPrograms.compile(work, "Connectivity");
        Path hostfile = Files.writeString(work.resolve("hosts"), "# two sites\n" + lan.host(0) + " slots=2 site=lab\n"
            + lan.host(1) + " slots=1 site=cloud\n");
        try (MpirunProcess run = MpirunProcess.mpirun(programs, "--hostfile", hostfile.toString(), "--launcher",
                "ip netns exec {host}", "--explain", "--output", "rank-prefix", "-cp", ".", "Connectivity")) {
            assertEquals(0, run.awaitExit(JOB), run.output());
            String out = run.output();
            assertTrue(out.contains("[0] connectivity: 3 pairs of 3 ranks reach each other; rank 0 by local,shm,tcp"), out);
            assertTrue(out.lines().anyMatch(l -> l.startsWith("[0] polylink mpi: rank 0 reaches rank 2 by tcp")
                && l.endsWith("site cloud; here site lab)")), out);
            assertTrue(out.lines().anyMatch(l -> l.startsWith("[2] polylink mpi: rank 2 reaches rank 1 by tcp")
                && l.endsWith("site lab; here site cloud)")), out);
            leftovers.assertNone(out);
        }
    }

    @Test
    void plogpMeasuresTheLinkBetweenTwoHostsAsOneBetweenSites() throws Exception {
        try (MpirunProcess run = MpirunProcess.shell(work, "\"$POLYLINK_HOME/bin/polylink\" plogp --tmpdir tmp --host "
                + lan.host(0) + "," + lan.host(1) + " --launcher 'ip netns exec {host}' --stacks tcp,lz4/tcp "
                + "--max-size 4k --time-ms 5 --warmup-ms 200 --db plogp.models --svg plogp.svg")) {
            assertEquals(0, run.awaitExit(JOB), run.output());
            String out = run.output();
            assertTrue(out.contains("P-LogP of tcp, other-site") && out.contains("P-LogP of lz4/tcp, other-site"), out);
            ModelDatabase models = ModelDatabase.read(work.resolve("plogp.models"));
            assertEquals(List.of("lz4/tcp", "tcp"), models.models().stream().map(LinkModel::stack).toList(),
                "two hosts that name no site are two sites: " + models);
            assertTrue(models.models().stream().allMatch(m -> m.location() == PeerLocation.OTHER_SITE), models::toString);
            leftovers.assertNone(out);
        }
    }

    @Test
    void theDocumentedRingRunsAcrossTheHosts() throws Exception {
        MpiPrograms.documentedRing(work);
        try (MpirunProcess ring = acrossHosts(work, "-cp", ".", "Ring")) {
            assertEquals(0, ring.awaitExit(JOB), ring.output());
            MpiPrograms.assertDocumentedRingOutput(ring.output());
            leftovers.assertNone(ring.output());
        }
    }

    @Test
    void aHostTornDownMidJobEndsTheJobWithinSecondsNamingItAndLeavesNoProcess() throws Exception {
        Path programs = MpiPrograms.compile(work, "WaitForever");
        try (MpirunProcess run = acrossHosts(programs, "-cp", ".", "WaitForever")) {
            for (int r = 0; r < 4; r++) {
                run.awaitMatch("^rank " + r + " pid \\d+ waits$", JOB);
            }
            assertEquals(2, lan.processes(1).size(), "host 1 runs its two ranks:\n" + run.output());
            long down = System.nanoTime();
            lan.tearDown(1);
            int status = run.awaitExit(Duration.ofSeconds(30));
            double seconds = (System.nanoTime() - down) / 1e9;
            String out = run.output();
            assertNotEquals(0, status, out);
            assertTrue(out.contains("failed: rank 2 on host " + lan.host(1)) || out.contains("failed: rank 3 on host "
                + lan.host(1)), "the job's failure names a rank of the host that went:\n" + out);
            assertTrue(seconds < 20, "the job ended " + seconds + " s after its host went:\n" + out);
            assertEquals(List.of(), lan.processes(0), "host 0 still runs processes:\n" + out);
            leftovers.assertNone(out);
        } finally {
            NetworkNamespaces torn = lan;
            lan = null;
            torn.close();
            lan = NetworkNamespaces.create(2);
        }
    }

    @Test
    void aRankThatCannotStartFailsTheJobWithinSecondsNamingItsHost() throws Exception {
        Path programs = MpiPrograms.compile(work, "Hello");
        long start = System.nanoTime();
        try (MpirunProcess run = acrossHosts(programs, "--prefix", "/nonexistent/polylink", "-cp", ".", "Hello")) {
            int status = run.awaitExit(JOB);
            double seconds = (System.nanoTime() - start) / 1e9;
            String out = run.output();
            assertNotEquals(0, status, out);
            assertTrue(out.contains("before the job was wired up; stopping the others"), out);
            assertTrue(out.lines().anyMatch(l -> l.matches("polylink mpirun: job \\S+ failed: rank \\d on host ("
                + lan.host(0) + "|" + lan.host(1) + ") exited with code \\d+")), "the failure names a rank's host:\n" + out);
            assertTrue(seconds < 20, "the job failed only after " + seconds + " s:\n" + out);
            leftovers.assertNone(out);
        }
    }
}
