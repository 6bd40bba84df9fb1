package io.polylink.mpi;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.mpi.job.Job;
import io.polylink.mpi.job.Result;
import io.polylink.mpi.programs.coll.BlockReductions;
import io.polylink.mpi.programs.coll.Matrix;
import io.polylink.mpi.programs.coll.Meetings;
import io.polylink.mpi.programs.coll.Overlap;
import io.polylink.mpi.programs.coll.RingReductions;
import io.polylink.mpi.programs.coll.Spreads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MPI's collectives between ranks, each in its own context, over real shm segments and tcp
 * sockets: every collective in every form and every algorithm, checked against a sequential
 * computation ({@link Matrix}), on one host and over two; and non-blocking collectives that
 * complete while their application computes ({@link Overlap}).
 */
class CollectivesTest {

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 5})
    void everyCollectiveInEveryFormAndAlgorithmMatchesASequentialComputation(int ranks) throws Exception {
        try (Job job = Job.of(ranks, Job.Methods.SHM)) {
            job.run(Matrix.class).assertSucceeded();
        }
    }

    /**
     * Ranks on two hosts, one letter per rank naming its host: hosts of 1 and 1, 1 and 4, 2 and 3,
     * 3 and 2 ranks, and hosts whose ranks interleave. Shm within a host, tcp between them, and the
     * collectives go through a leader per host, with roots on either host.
     */
    @ParameterizedTest(name = "hosts {0}")
    @ValueSource(strings = {"ab", "abbbb", "aabbb", "aaabb", "abab", "ababa"})
    void ranksOnTwoHostsRunTheHierarchicalAlgorithmsWithTheSameResults(String hosts) throws Exception {
        try (Job job = Job.of(hosts.length(), Job.Methods.SHM_AND_TCP)) {
            for (int r = 0; r < hosts.length(); r++) {
                job.env(r, "POLYLINK_MPI_HOST", "host-" + hosts.charAt(r));
            }
            job.run(Matrix.class, "hosts=" + hosts).assertSucceeded();
        }
    }

    /**
     * Small blocking barriers and allreduces of ranks on one host meet in memory they share
     * ({@link Meetings}); ranks whose messages go by tcp do not, and say why.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4})
    void smallBlockingCallsOfRanksOnOneHostMeetInSharedMemory(int ranks) throws Exception {
        try (Job job = Job.of(ranks, Job.Methods.SHM)) {
            job.run(Meetings.class).assertSucceeded();
        }
    }

    /**
     * Larger broadcasts of ranks on one host are read from a buffer the ranks share, as the root
     * packs it ({@link Spreads}).
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4})
    void largeBroadcastsOfRanksOnOneHostAreReadWhereTheRootPutTheData(int ranks) throws Exception {
        try (Job job = Job.of(ranks, Job.Methods.SHM)) {
            job.run(Spreads.class).assertSucceeded();
        }
    }

    /**
     * Allreduces of 16 to 64 KiB of ranks on one host combine blocks of the vector from each
     * other's data where it lies ({@link BlockReductions}).
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4})
    void midSizedAllreducesOfRanksOnOneHostCombineEachOthersDataWhereItLies(int ranks) throws Exception {
        try (Job job = Job.of(ranks, Job.Methods.SHM)) {
            job.run(BlockReductions.class).assertSucceeded();
        }
    }

    /**
     * Larger allreduces of ranks on one host whose data lies in arrays go round a ring a piece at a
     * time through memory the ranks share ({@link RingReductions}).
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4})
    void largeAllreducesFromArraysOfRanksOnOneHostGoRoundARingThroughSharedMemory(int ranks) throws Exception {
        try (Job job = Job.of(ranks, Job.Methods.SHM)) {
            job.run(RingReductions.class).assertSucceeded();
        }
    }

    @Test
    void ranksThatReachEachOtherByTcpDoNotMeetInSharedMemoryAndSayWhy() throws Exception {
        try (Job job = Job.of(3, Job.Methods.TCP)) {
            job.run(Meetings.class, "refused=reaches rank").assertSucceeded();
        }
    }

    @Test
    void nonBlockingCollectivesCompleteWhileTheApplicationComputesWithoutCallingMpi() throws Exception {
        try (Job job = Job.of(4, Job.Methods.SHM)) {
            Result result = job.run(Overlap.class).assertSucceeded();
            for (int r = 0; r < 4; r++) {
                assertTrue(result.out(r).contains("iAllReduce: result complete"), result.out(r));
                assertTrue(result.out(r).contains("iBcast: result complete"), result.out(r));
            }
        }
    }
}
