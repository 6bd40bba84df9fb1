package io.polylink.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.core.internal.naming.DirectoryNameRegistry;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.mpi.internal.wire.Header;
import io.polylink.mpi.internal.wire.HeaderCodec;
import io.polylink.mpi.job.Job;
import io.polylink.mpi.job.RankResult;
import io.polylink.mpi.job.Result;
import io.polylink.mpi.programs.Abort;
import io.polylink.mpi.programs.BadArguments;
import io.polylink.mpi.programs.FatalError;
import io.polylink.mpi.programs.InitOnly;
import io.polylink.mpi.programs.Intruded;
import io.polylink.mpi.programs.Overflow;
import io.polylink.mpi.programs.Unimplemented;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Errors: bad arguments, fatal errors, aborts, the unexpected-message bound, calls not
 * implemented, and launch settings that are wrong. Each ends with every context closed and no
 * Polylink thread left ({@link Job#close}).
 */
class ErrorsTest {

    @Test
    void badRanksTagsCountsTypesAndBuffersThrowTheirErrorClassAndTheLinksStayHealthy() throws Exception {
        try (Job job = Job.of(3, Job.Methods.TCP)) {
            job.run(BadArguments.class).assertSucceeded();
        }
    }

    @Test
    void aFatalErrorEndsEveryRankWithItsErrorClass() throws Exception {
        try (Job job = Job.of(3, Job.Methods.SHM)) {
            Result r = job.run(FatalError.class);
            for (RankResult rank : r.ranks()) {
                assertEquals(6, rank.exitStatus(), "MPI.ERR_RANK is the exit status of every rank\n" + r);
            }
            RankResult culprit = r.rank(1);
            assertNotNull(culprit.failure(), r.toString());
            assertTrue(culprit.err().contains("rank 17 is not in MPI_COMM_WORLD"), culprit.err());
            assertTrue(culprit.err().contains("MPI.ERRORS_ARE_FATAL"), culprit.err());
            assertFalse(culprit.out().contains("went on"), culprit.out());
            for (int rank : new int[] {0, 2}) {
                assertTrue(r.out(rank).contains("stopped waiting: 74 the job was aborted by rank 1 with code 6"),
                    r.toString());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"TCP, receive", "SHM, barrier", "SHM, bcast"})
    void anAbortEndsEveryRankWithItsCode(Job.Methods methods, String waitingIn) throws Exception {
        try (Job job = Job.of(3, methods)) {
            Result r = job.run(Abort.class, waitingIn);
            for (RankResult rank : r.ranks()) {
                assertEquals(7, rank.exitStatus(), r.toString());
            }
            assertTrue(r.out(2).contains("rank 2 stopped: 74 rank 2 aborted the job with code 7"), r.toString());
            for (int rank = 0; rank < 2; rank++) {
                assertTrue(r.out(rank).contains("stopped: 74 the job was aborted by rank 2 with code 7"), r.toString());
                assertTrue(r.out(rank).contains("after the abort: the job was aborted by rank 2 with code 7"),
                    r.toString());
            }
        }
    }

    @Test
    void messagesPastTheUnexpectedBoundFailTheReceiverClearly() throws Exception {
        try (Job job = overflowing()) {
            job.run(Overflow.class).assertSucceeded();
        }
    }

    @Test
    void messagesPastTheUnexpectedBoundEndTheJobUnderErrorsAreFatal() throws Exception {
        try (Job job = overflowing()) {
            Result r = job.run(Overflow.class, "fatal");
            for (RankResult rank : r.ranks()) {
                assertEquals(39, rank.exitStatus(), "MPI.ERR_NO_MEM ends every rank\n" + r);
            }
            assertTrue(r.rank(1).err().contains("POLYLINK_MPI_UNEXPECTED_MESSAGES"), r.toString());
        }
    }

    private static Job overflowing() throws Exception {
        return Job.of(2, Job.Methods.SHM)
            .env("POLYLINK_MPI_UNEXPECTED_MESSAGES", "8")
            .env("POLYLINK_MPI_UNEXPECTED_BYTES", "4096")
            .env("POLYLINK_MPI_EAGER_LIMIT", "1024");
    }

    @Test
    void malformedMessagesFromOutsideTheJobAreRefusedAndTheRanksGoOn() throws Exception {
        try (Job job = Job.of(3, Job.Methods.TCP).alongside(ErrorsTest::flood)) {
            job.run(Intruded.class).assertSucceeded();
        }
    }

    /**
     * Sends rank 1 what a confused or hostile peer could: random bytes to each engine handler and
     * an unknown one, and well-formed headers that name requests and communicators that do not
     * exist. Then a well-formed message rank 1 receives, after every other on this link.
     */
    private static void flood(Job.JobSignals signals, Path registry) throws Exception {
        signals.await("ready", Duration.ofSeconds(60));
        try (EmbeddedContext outsider = EmbeddedContext.open()) {
            outsider.add(new TcpMethod(Map.of("bindAddress", "127.0.0.1")), 50);
            outsider.registry(new DirectoryNameRegistry(registry));
            Context c = outsider.context();
            Startpoint rank1 = c.lookup(signals.name(1)).orElseThrow();
            Random random = new Random(40);
            MessageBuffer m = c.allocateBuffer(256);
            for (int i = 0; i < 300; i++) {
                byte[] noise = new byte[random.nextInt(80)];
                random.nextBytes(noise);
                if (i % 3 == 0 && noise.length > 0) {
                    noise[0] = (byte) (Header.VERSION << 4 | 1 + random.nextInt(8));
                }
                rank1.send(1 + i % 3, m.clear().putRaw(noise, 0, noise.length));
            }
            HeaderCodec.data(m.clear(), 12345, 0, true);
            rank1.send(Header.INLINE_HANDLER, m.putLong(1));
            HeaderCodec.syncAck(m.clear(), 777);
            rank1.send(Header.INLINE_HANDLER, m);
            HeaderCodec.cts(m.clear(), 888, 1, 1 << 20);
            rank1.send(Header.INLINE_HANDLER, m);
            HeaderCodec.rts(m.clear(), 1_000_000, 0, 5, 1, 1L << 40);
            rank1.send(Header.INLINE_HANDLER, m);
            for (int i = 0; i < 10; i++) {
                HeaderCodec.eager(m.clear(), 1_000_002, 0, i);
                rank1.send(Header.INLINE_HANDLER, m.putInts(new int[] {i}, 0, 1, ByteOrder.LITTLE_ENDIAN));
            }
            HeaderCodec.eager(m.clear(), 0, 0, 99);
            rank1.send(Header.INLINE_HANDLER, m.putInts(new int[] {4242}, 0, 1, ByteOrder.LITTLE_ENDIAN)); // data is little-endian
            signals.await("finished", Duration.ofSeconds(60));
        }
    }

    @Test
    void callsNotImplementedThrowNamingThem() throws Exception {
        try (Job job = Job.of(2, Job.Methods.TCP)) {
            job.run(Unimplemented.class).assertSucceeded();
        }
    }

    @Test
    void aJobWithoutARegistryFailsInitNamingTheVariable() throws Exception {
        try (Job job = Job.of(2, Job.Methods.TCP).env("POLYLINK_MPI_REGISTRY", "")) {
            Result r = job.run(InitOnly.class).assertSucceeded();
            assertTrue(r.out(0).contains("Init failed: 13 MPI.Init: POLYLINK_MPI_REGISTRY is not set"), r.out(0));
            assertTrue(r.out(0).contains("isInitialized false"), r.out(0));
        }
    }

    @Test
    void aRankThatNeverStartsFailsTheOthersInitNamingItWithinTheWireupTimeout() throws Exception {
        try (Job job = Job.of(3, Job.Methods.TCP).only(0, 1).env("POLYLINK_MPI_WIREUP_TIMEOUT_MS", "1500")
                .limit(Duration.ofSeconds(60))) {
            Result r = job.run(InitOnly.class).assertSucceeded();
            for (int rank = 0; rank < 2; rank++) {
                assertTrue(r.out(rank).contains("waited 1500 ms for the other ranks"), r.out(rank));
                assertTrue(r.out(rank).contains("rank 2 did not appear"), r.out(rank));
            }
        }
    }

    @Test
    void aRankAloneRunsWithoutALauncher() throws Exception {
        try (Job job = Job.of(1, Job.Methods.TCP).env("POLYLINK_MPI_JOB", "").env("POLYLINK_MPI_RANK", "")
                .env("POLYLINK_MPI_SIZE", "")) {
            Result r = job.run(InitOnly.class).assertSucceeded();
            assertTrue(r.out(0).contains("rank 0 of 1"), r.out(0));
            assertTrue(r.out(0).contains("isFinalized true"), r.out(0));
        }
    }
}
