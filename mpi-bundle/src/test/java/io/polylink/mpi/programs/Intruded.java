package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.polylink.mpi.job.Signals;
import java.nio.IntBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Ranks that a peer outside the job floods with malformed messages: once rank 1 received the
 * peer's last message (a well-formed one, so every earlier one from that peer was handled
 * first), the ranks exchange small and large messages and synchronize as if nothing happened.
 */
public final class Intruded {

    private static final int LARGE = 100_000;

    private Intruded() {}

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int me = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        MPI.COMM_WORLD.barrier();
        if (me == 1) {
            Signals.raise("ready");
            int[] marker = new int[1];
            MPI.COMM_WORLD.recv(marker, 1, MPI.INT, 0, 99);
            assertEquals(4242, marker[0], "the outsider's last message");
        }
        int[] got = new int[1];
        MPI.COMM_WORLD.sendRecv(new int[] {me}, 1, MPI.INT, (me + 1) % size, 1, got, 1, MPI.INT,
            (me + size - 1) % size, 1);
        assertEquals((me + size - 1) % size, got[0]);
        IntBuffer large = MPI.newIntBuffer(LARGE);
        if (me == 0) {
            large.put(LARGE - 1, 7);
            Request r = MPI.COMM_WORLD.iSend(large, LARGE, MPI.INT, 1, 2);
            MPI.COMM_WORLD.sSend(new int[] {3}, 1, MPI.INT, 1, 3);
            r.waitFor();
        } else if (me == 1) {
            MPI.COMM_WORLD.recv(got, 1, MPI.INT, 0, 3);
            MPI.COMM_WORLD.iRecv(large, LARGE, MPI.INT, 0, 2).waitFor();
            assertEquals(7, large.get(LARGE - 1));
        }
        MPI.COMM_WORLD.barrier();
        if (me == 1) {
            Signals.raise("finished");
        }
        MPI.Finalize();
    }
}
