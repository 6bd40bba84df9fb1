package io.polylink.mpi.internal.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.PolylinkSettings;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.p2p.Limits;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a rank learns who it is and where the others are: mpirun's variables, Slurm's, or none. */
class LaunchSettingsTest {

    @Test
    void aRendezvousIsChunkedForShmsRingOrInLargerChunksOverOtherMethodsUnlessAChunkIsGiven() {
        Map<String, String> job = Map.of(LaunchSettings.JOB, "j1", LaunchSettings.RANK, "0", LaunchSettings.SIZE, "1");
        Limits defaults = LaunchSettings.from(job).limits();
        assertEquals(64 * 1024, defaults.chunkOver("shm"));
        assertEquals(64 * 1024, defaults.chunkOver("lz4/shm"));
        assertEquals(1024 * 1024, defaults.chunkOver("tcp"));
        assertEquals(1024 * 1024, defaults.chunkOver("lz4+aead/tcp"));
        assertEquals(64 * 1024, defaults.chunkOver(null), "a stack not known yet");
        Map<String, String> given = new HashMap<>(job);
        given.put(LaunchSettings.CHUNK, "100000");
        Limits chunked = LaunchSettings.from(given).limits();
        assertEquals(100000, chunked.chunkOver("shm"));
        assertEquals(100000, chunked.chunkOver("tcp"));
        Limits fitted = defaults.fitting(128 * 1024);
        assertTrue(fitted.chunkOver("tcp") < 128 * 1024, "a chunk fits one RSR: " + fitted.chunkOver("tcp"));
        assertEquals(0, fitted.chunkOver("tcp") % 8);
        assertEquals(64 * 1024, fitted.chunkOver("shm"));
    }

    @Test
    void underSrunARankTakesJobRankAndSizeFromSlurm() {
        LaunchSettings s = LaunchSettings.from(Map.of(LaunchSettings.SLURM_JOB_ID, "4242", LaunchSettings.SLURM_STEP_ID,
            "3", LaunchSettings.SLURM_PROCID, "1", LaunchSettings.SLURM_NTASKS, "4", LaunchSettings.REGISTRY,
            "zookeeper://zk1:2181,zk2:2181/hpc"));
        assertEquals("slurm-4242-3", s.job());
        assertEquals(1, s.rank());
        assertEquals(4, s.size());
        assertEquals("zk1:2181,zk2:2181/hpc", s.zookeeper());
        assertNull(s.registry());
        assertEquals("ZooKeeper zk1:2181,zk2:2181/hpc", s.meetingPlace());
    }

    @Test
    void mpirunsVariablesComeBeforeSlurmsAndAShellInAnAllocationRunsAlone() {
        LaunchSettings mpirun = LaunchSettings.from(Map.of(LaunchSettings.JOB, "j1", LaunchSettings.RANK, "0",
            LaunchSettings.SIZE, "2", LaunchSettings.REGISTRY, "/shared/registry", LaunchSettings.SLURM_JOB_ID, "7",
            LaunchSettings.SLURM_PROCID, "5", LaunchSettings.SLURM_NTASKS, "8"));
        assertEquals("j1", mpirun.job());
        assertEquals(2, mpirun.size());
        LaunchSettings salloc = LaunchSettings.from(Map.of(LaunchSettings.SLURM_JOB_ID, "7"));
        assertEquals(1, salloc.size());
        assertTrue(salloc.job().startsWith("singleton-"), salloc.job());
    }

    @Test
    void aSlurmJobOfSeveralRanksWithoutARegistryIsToldWhatToSet() {
        MpiError e = assertThrows(MpiError.class, () -> LaunchSettings.from(Map.of(LaunchSettings.SLURM_JOB_ID, "7",
            LaunchSettings.SLURM_PROCID, "0", LaunchSettings.SLURM_NTASKS, "2")));
        assertTrue(e.getMessage().contains("POLYLINK_MPI_REGISTRY is not set: ranks of a job of 2 find each other in a "
            + "naming registry they all share, a directory or zookeeper://host:port"), e.getMessage());
    }

    @Test
    void aRankStartedOnAnotherHostReportsToMpirun() {
        LaunchSettings s = LaunchSettings.from(Map.of(LaunchSettings.JOB, "j1", LaunchSettings.RANK, "3",
            LaunchSettings.SIZE, "4", LaunchSettings.MPIRUN, "10.0.0.1:4000,[fe80::1]:4000", LaunchSettings.MPIRUN_KEY,
            "00112233445566778899aabbccddeeff", LaunchSettings.HOST, "node7"));
        assertEquals(List.of(new MpirunContact.Address("10.0.0.1", 4000), new MpirunContact.Address("fe80::1", 4000)),
            s.mpirun().addresses());
        assertEquals("10.0.0.1:4000,[fe80::1]:4000", s.mpirun().toString(), "never the key");
        assertEquals(" on host node7", s.onHost());
        assertNull(s.registry());
        assertNull(s.zookeeper());
    }

    @Test
    void aWrongMpirunContactOrRegistryIsNamed() {
        Map<String, String> job = Map.of(LaunchSettings.JOB, "j1", LaunchSettings.RANK, "0", LaunchSettings.SIZE, "2");
        assertEquals("MPI.Init: POLYLINK_MPI_MPIRUN='10.0.0.1': '10.0.0.1' is not host:port",
            assertThrows(MpiError.class, () -> LaunchSettings.from(with(job, LaunchSettings.MPIRUN, "10.0.0.1",
                LaunchSettings.MPIRUN_KEY, "00112233445566778899aabbccddeeff"))).getMessage());
        assertTrue(assertThrows(MpiError.class, () -> LaunchSettings.from(with(job, LaunchSettings.MPIRUN,
            "h:1", LaunchSettings.MPIRUN_KEY, "abc"))).getMessage().contains("POLYLINK_MPI_MPIRUN_KEY is not 16 bytes"));
        assertTrue(assertThrows(MpiError.class, () -> LaunchSettings.from(with(job, LaunchSettings.MPIRUN, "h:1")))
            .getMessage().contains("set POLYLINK_MPI_MPIRUN but not POLYLINK_MPI_MPIRUN_KEY"));
        assertTrue(assertThrows(MpiError.class, () -> LaunchSettings.from(with(job, LaunchSettings.REGISTRY,
            "zookeeper://"))).getMessage().contains("names no ZooKeeper ensemble"));
    }

    @Test
    void aRankMeetingInZooKeeperStartsTheRegistryBundleConfiguredForItsJob() {
        Map<String, String> env = Map.of(LaunchSettings.JOB, "j9", LaunchSettings.RANK, "0", LaunchSettings.SIZE, "2",
            LaunchSettings.REGISTRY, "zookeeper://zk:2181/site-a", EmbeddedRankHost.BUNDLES,
            "/opt/polylink/lib/mpi/bundles/polylink-registry-zookeeper.jar", EmbeddedRankHost.SITE, "a",
            EmbeddedRankHost.HOST_ID, "node-3");
        PolylinkSettings s = EmbeddedRankHost.settings(env, LaunchSettings.from(env));
        assertEquals(Map.of("type", "zookeeper", "connect", "zk:2181", "chroot", "/site-a", "group", "j9"),
            s.configurations().get("io.polylink.registry"));
        assertEquals(List.of(java.nio.file.Path.of("/opt/polylink/lib/mpi/bundles/polylink-registry-zookeeper.jar")),
            s.bundles());
        assertEquals(Map.of("site", "a", "hostId", "node-3"), s.configurations().get("io.polylink.core"));
    }

    private static Map<String, String> with(Map<String, String> env, String... more) {
        Map<String, String> all = new HashMap<>(env);
        for (int i = 0; i < more.length; i += 2) {
            all.put(more[i], more[i + 1]);
        }
        return all;
    }
}
