package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.mpi.job.Signals;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.time.Duration;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Progress without MPI calls. Rank 0 starts a large send and then computes, calling no MPI method,
 * until rank 1 says it received the whole message: the data moved while rank 0 computed. Then rank 1
 * posts a receive and computes, calling nothing, while rank 0's synchronous send waits for it to
 * be matched: the match and its answer happen on rank 1's Polylink threads. The ranks tell each
 * other through signals outside MPI.
 */
public final class Progress {

    private static final int LARGE = 1 << 19;
    private static final Duration LIMIT = Duration.ofSeconds(60);

    private Progress() {}

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int me = MPI.COMM_WORLD.getRank();
        DoubleBuffer data = MPI.newDoubleBuffer(LARGE);
        IntBuffer one = MPI.newIntBuffer(1);
        if (me == 0) {
            for (int i = 0; i < LARGE; i++) {
                data.put(i, i * 0.5);
            }
            Request send = MPI.COMM_WORLD.iSend(data, LARGE, MPI.DOUBLE, 1, 1);
            computeUntil("received");
            send.waitFor();

            Signals.await("posted", LIMIT);
            MPI.COMM_WORLD.sSend(new int[] {42}, 1, MPI.INT, 1, 2);
            Signals.raise("matched");
        } else if (me == 1) {
            Request receive = MPI.COMM_WORLD.iRecv(data, LARGE, MPI.DOUBLE, 0, 1);
            receive.waitFor();
            assertEquals((LARGE - 1) * 0.5, data.get(LARGE - 1));
            Signals.raise("received");

            Request matched = MPI.COMM_WORLD.iRecv(one, 1, MPI.INT, 0, 2);
            Signals.raise("posted");
            computeUntil("matched");
            assertTrue(matched.test(), "the receive completed while rank 1 computed");
            assertEquals(42, one.get(0));
        }
        MPI.Finalize();
    }

    /** Computes, calling no MPI method, until the signal is raised; fails after {@link #LIMIT}. */
    private static void computeUntil(String signal) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        double x = 0;
        while (!Signals.raised(signal)) {
            for (int i = 0; i < 10_000; i++) {
                x += Math.sqrt(i + x % 7);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("signal '" + signal + "' not raised within " + LIMIT + " (" + x + ")");
            }
        }
    }
}
