package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.mpi.job.Signals;
import java.nio.IntBuffer;
import java.time.Duration;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * The bound on messages that arrive before their receives, run with at most 8 such messages and
 * 4 KiB of their data, and an eager limit of 1 KiB. A large message waits at its sender, so 400
 * KB of it take none of the receiver's room: it and 7 small ones fit. Small ones past the bound
 * fail the receiving rank with a clear {@code ERR_NO_MEM}; with {@code fatal}, the error ends the
 * job instead.
 */
public final class Overflow {

    private static final int LARGE = 100_000;
    private static final Duration LIMIT = Duration.ofSeconds(60);

    private Overflow() {}

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        boolean fatal = args.length > 0 && args[0].equals("fatal");
        if (!fatal) {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        }
        int me = MPI.COMM_WORLD.getRank();
        if (me == 0) {
            IntBuffer large = MPI.newIntBuffer(LARGE).put(LARGE - 1, 9);
            Request r = MPI.COMM_WORLD.iSend(large, LARGE, MPI.INT, 1, 1);
            for (int i = 0; i < 7; i++) {
                MPI.COMM_WORLD.send(new int[] {i}, 1, MPI.INT, 1, 2);
            }
            Signals.raise("fits");
            r.waitFor();
            Signals.await("received", LIMIT);
            for (int i = 0; i < 20; i++) {
                MPI.COMM_WORLD.send(new int[] {i}, 1, MPI.INT, 1, 3);
            }
            MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 1, 5);
            if (fatal) {
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 1, 4);
                return;
            }
        } else if (me == 1) {
            Signals.await("fits", LIMIT);
            int[] large = new int[LARGE];
            MPI.COMM_WORLD.recv(large, LARGE, MPI.INT, 0, 1);
            assertEquals(9, large[LARGE - 1]);
            for (int i = 0; i < 7; i++) {
                int[] one = new int[1];
                MPI.COMM_WORLD.recv(one, 1, MPI.INT, 0, 2);
                assertEquals(i, one[0]);
            }
            Signals.raise("received");
            // No receive is posted now: the 20 messages and the last one (tag 5) queue up until one
            // is past the bound. Then the probe fails; before, it finds no message of tag 5.
            MPIException e = assertThrows(MPIException.class, () -> {
                while (MPI.COMM_WORLD.iProbe(0, 5) == null) {
                    Thread.onSpinWait();
                }
            });
            if (fatal) {
                return;
            }
            assertEquals(MPI.ERR_NO_MEM, e.getErrorClass(), e.getMessage());
            assertTrue(e.getMessage().contains("its limit (8 messages, 4096 bytes)"), e.getMessage());
            assertTrue(e.getMessage().contains("POLYLINK_MPI_UNEXPECTED_MESSAGES"), e.getMessage());
            e = assertThrows(MPIException.class, () -> MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 0, 3));
            assertEquals(MPI.ERR_NO_MEM, e.getErrorClass(), "every later receive fails the same way");
        }
        MPI.Finalize();
    }
}
