package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.testkit.Await;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code polylink mpirun --registry zookeeper://HOST:PORT}: the ranks meet in a real ZooKeeper
 * server run in a JVM of its own, their names ephemeral nodes under {@code /polylink/JOB}; a
 * ZooKeeper restart mid-job leaves the job running and its names there; the names go when the job
 * ends; a rank that cannot reach ZooKeeper fails the job saying so.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ZooKeeperIT {

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
    void ranksMeetInZooKeeperAndTheJobOutlivesAZooKeeperRestart() throws Exception {
        Path programs = MpiPrograms.compile(work, "Pause");
        try (ZooKeeperServer zk = ZooKeeperServer.start(work.resolve("zookeeper"));
             CuratorFramework reader = CuratorFrameworkFactory.newClient(zk.connect(), new RetryNTimes(100, 200));
             MpirunProcess run = MpirunProcess.mpirun(programs, "-np", "3", "--registry", "zookeeper://" + zk.connect(),
                 "-cp", ".", "Pause")) {
            reader.start();
            for (int r = 0; r < 3; r++) {
                run.awaitMatch("^rank " + r + " wired$", JOB);
            }
            List<String> jobs = reader.getChildren().forPath("/polylink");
            assertEquals(1, jobs.size(), "one node for the job under the installation's chroot: " + jobs);
            String job = "/polylink/" + jobs.get(0);
            List<String> names = List.of("mpi." + jobs.get(0) + ".0", "mpi." + jobs.get(0) + ".1",
                "mpi." + jobs.get(0) + ".2");
            assertEquals(names, reader.getChildren().forPath(job).stream().sorted().toList());

            zk.restart();
            Await.until(() -> names(reader, job).equals(names), Duration.ofSeconds(30),
                () -> "the job's names after ZooKeeper restarted: " + names(reader, job) + "\n" + output(run));
            run.input("go");

            assertEquals(0, run.awaitExit(JOB), run.output());
            for (int r = 0; r < 3; r++) {
                assertTrue(run.output().contains("rank " + r + " got " + (r + 2) % 3), run.output());
            }
            Await.until(() -> names(reader, job).isEmpty(), Duration.ofSeconds(20),
                () -> "names left in ZooKeeper after the job: " + names(reader, job));
            leftovers.assertNone(run.output());
        }
    }

    @Test
    void aRankThatCannotReachZooKeeperFailsTheJobSayingSo() throws Exception {
        Path programs = MpiPrograms.compile(work, "Hello");
        int closed;
        try (ServerSocket free = new ServerSocket(0)) {
            closed = free.getLocalPort();
        }
        try (MpirunProcess run = MpirunProcess.mpirun(programs, "-np", "2", "--registry", "zookeeper://127.0.0.1:"
                + closed, "-x", "POLYLINK_MPI_WIREUP_TIMEOUT_MS=4000", "-cp", ".", "Hello")) {
            assertNotEquals(0, run.awaitExit(JOB), run.output());
            String out = run.output();
            assertTrue(out.contains("cannot publish itself in ZooKeeper 127.0.0.1:" + closed), out);
            assertTrue(out.contains("ZooKeeper 127.0.0.1:" + closed + " cannot be reached"), out);
            leftovers.assertNone(out);
        }
    }

    private static List<String> names(CuratorFramework reader, String job) {
        try {
            return reader.checkExists().forPath(job) == null ? List.of()
                : reader.getChildren().forPath(job).stream().sorted().toList();
        } catch (Exception notNow) {
            return List.of("(ZooKeeper cannot be read now: " + notNow + ")");
        }
    }

    private static String output(MpirunProcess run) {
        try {
            return run.output();
        } catch (java.io.IOException e) {
            return "(no output: " + e + ")";
        }
    }
}
