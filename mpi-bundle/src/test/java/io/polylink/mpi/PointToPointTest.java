package io.polylink.mpi;

import io.polylink.mpi.internal.boot.LaunchSettings;
import io.polylink.mpi.job.Job;
import io.polylink.mpi.programs.BouncedMessages;
import io.polylink.mpi.programs.Buffered;
import io.polylink.mpi.programs.Cancel;
import io.polylink.mpi.programs.Completion;
import io.polylink.mpi.programs.LentData;
import io.polylink.mpi.programs.NoSecondCopy;
import io.polylink.mpi.programs.Ordering;
import io.polylink.mpi.programs.Persistent;
import io.polylink.mpi.programs.Probes;
import io.polylink.mpi.programs.Progress;
import io.polylink.mpi.programs.Requests;
import io.polylink.mpi.programs.SelfMessages;
import io.polylink.mpi.programs.SharedBuffers;
import io.polylink.mpi.programs.Threads;
import io.polylink.mpi.programs.Truncation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Point-to-point messaging between ranks, each in its own context, over real tcp sockets and shm
 * segments. Each test runs one of the programs in {@code io.polylink.mpi.programs}; their javadoc
 * says what they check.
 */
class PointToPointTest {

    private static void runs(int size, Job.Methods methods, Class<?> program, String... env) throws Exception {
        try (Job job = Job.of(size, methods)) {
            for (int i = 0; i < env.length; i += 2) {
                job.env(env[i], env[i + 1]);
            }
            job.run(program).assertSucceeded();
        }
    }

    @ParameterizedTest
    @EnumSource(value = Job.Methods.class, names = {"TCP", "SHM"})
    void wildcardReceivesNeverLetAMessageOvertakeAnEarlierOneTheyMatch(Job.Methods methods) throws Exception {
        runs(4, methods, Ordering.class, "POLYLINK_MPI_EAGER_LIMIT", "256");
    }

    @Test
    void aLongerMessageFillsTheBufferAndReportsTruncationWithTheBuffersCount() throws Exception {
        runs(2, Job.Methods.TCP, Truncation.class);
    }

    @Test
    void aReceiveNothingMatchedIsCancelledAndOneThatMatchedIsNot() throws Exception {
        runs(2, Job.Methods.SHM, Cancel.class);
    }

    @Test
    void persistentRequestsCarryRepeatedExchangesInEverySendMode() throws Exception {
        runs(2, Job.Methods.TCP, Persistent.class);
    }

    @Test
    void smallSendsCompleteAtOnceAndSynchronousOrLargeOnesOnlyOnceMatched() throws Exception {
        runs(2, Job.Methods.SHM, Completion.class);
    }

    @ParameterizedTest
    @EnumSource(value = Job.Methods.class, names = {"TCP", "SHM"})
    void messagesProgressWhileTheApplicationComputesWithoutCallingMpi(Job.Methods methods) throws Exception {
        runs(2, methods, Progress.class);
    }

    /**
     * The same with the methods' threads napping a minute while the ranks receive: only the
     * non-blocking calls handing receiving back let the messages progress while a rank computes.
     */
    @ParameterizedTest
    @EnumSource(value = Job.Methods.class, names = {"TCP", "SHM"})
    void nonBlockingCallsHandReceivingBackSoMessagesProgressAtOnce(Job.Methods methods) throws Exception {
        runs(2, methods, Progress.class, LaunchSettings.SHM_SETTINGS, "standBackMs=60000",
            LaunchSettings.TCP_SETTINGS, "standBackMicros=60000000");
    }

    @ParameterizedTest
    @EnumSource(value = Job.Methods.class, names = {"TCP", "SHM"})
    void aLargeMessageGoesFromItsFramesIntoThePostedBufferWithoutASecondCopy(Job.Methods methods) throws Exception {
        runs(2, methods, NoSecondCopy.class, "POLYLINK_MPI_CHUNK", "32768");
    }

    @ParameterizedTest
    @EnumSource(value = Job.Methods.class, names = {"TCP", "SHM"})
    void largeDataGoesFromWhereItLiesAndItsSendCompletesOnlyOnceTheBufferIsFree(Job.Methods methods)
        throws Exception {
        runs(2, methods, LentData.class, "POLYLINK_MPI_CHUNK", "32768");
    }

    @Test
    void largeMessagesFromSharedBuffersAreReadWhereTheyLieByTheReceiver() throws Exception {
        try (Job job = Job.of(2, Job.Methods.SHM)) {
            job.run(SharedBuffers.class, "shared").assertSucceeded();
        }
    }

    @Test
    void largeMessagesThatMustBePackedGoThroughABounceBufferTheReceiverReads() throws Exception {
        try (Job job = Job.of(2, Job.Methods.SHM)) {
            job.run(BouncedMessages.class).assertSucceeded();
        }
    }

    @ParameterizedTest
    @EnumSource(value = Job.Methods.class, names = {"TCP", "SHM"})
    void largeMessagesFromSharedBuffersArriveWhereTheReceiverCannotReadThem(Job.Methods methods) throws Exception {
        try (Job job = Job.of(2, methods)) {
            job.run(SharedBuffers.class, "gone").assertSucceeded();
        }
    }

    @Test
    void aRankSendsItselfSmallAndLargeMessages() throws Exception {
        runs(2, Job.Methods.TCP, SelfMessages.class);
    }

    @Test
    void waitAndTestOnArraysOfRequestsReportWhatCompleted() throws Exception {
        runs(2, Job.Methods.SHM, Requests.class);
    }

    @Test
    void bufferedSendsReturnAtOnceThroughTheAttachedBuffer() throws Exception {
        runs(2, Job.Methods.TCP, Buffered.class);
    }

    @Test
    void probesSeeMessagesAndMatchedProbesTakeThemFromEveryOtherReceive() throws Exception {
        runs(2, Job.Methods.SHM, Probes.class);
    }

    @ParameterizedTest
    @EnumSource(value = Job.Methods.class, names = {"TCP", "SHM_AND_TCP"})
    void threadsOfEveryRankCommunicateAtOnce(Job.Methods methods) throws Exception {
        runs(3, methods, Threads.class);
    }
}
