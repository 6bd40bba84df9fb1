package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.IntBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Cancelling: a receive nothing matched is cancelled and its status says so; one that matched
 * completes with its message; a send is not cancelled; the tags the cancelled receive would have
 * taken still reach later receives.
 */
public final class Cancel {

    private Cancel() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int me = MPI.COMM_WORLD.getRank();
        if (me == 1) {
            IntBuffer nothing = MPI.newIntBuffer(1);
            Request unmatched = MPI.COMM_WORLD.iRecv(nothing, 1, MPI.INT, 0, 99);
            unmatched.cancel();
            Status s = unmatched.waitStatus();
            assertTrue(s.isCancelled(), "a receive nothing matched is cancelled");
            assertTrue(unmatched.isNull());

            IntBuffer one = MPI.newIntBuffer(1);
            Request matched = MPI.COMM_WORLD.iRecv(one, 1, MPI.INT, 0, 1);
            MPI.COMM_WORLD.send(new int[] {0}, 1, MPI.INT, 0, 0);
            while (matched.getStatus() == null) {
                Thread.onSpinWait();
            }
            matched.cancel();
            s = matched.waitStatus();
            assertFalse(s.isCancelled(), "a receive that matched is not cancelled");
            assertEquals(41, one.get(0));

            IntBuffer late = MPI.newIntBuffer(1);
            Request again = MPI.COMM_WORLD.iRecv(late, 1, MPI.INT, 0, 99);
            MPI.COMM_WORLD.send(new int[] {0}, 1, MPI.INT, 0, 0);
            again.waitFor();
            assertEquals(99, late.get(0), "tag 99 reaches the receive after the cancelled one");
        } else if (me == 0) {
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 1, 0);
            MPI.COMM_WORLD.send(new int[] {41}, 1, MPI.INT, 1, 1);
            IntBuffer payload = MPI.newIntBuffer(1).put(0, 99);
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 1, 0);
            Request send = MPI.COMM_WORLD.iSend(payload, 1, MPI.INT, 1, 99);
            send.cancel();
            assertFalse(send.waitStatus().isCancelled(), "sends are not cancelled");
        }
        MPI.Finalize();
    }
}
