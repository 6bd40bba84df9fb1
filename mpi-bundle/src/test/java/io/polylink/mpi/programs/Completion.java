package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.IntBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * When sends complete. A small standard send completes at once, before any receive exists; a
 * synchronous one and a large one complete only once their receive is posted. Rank 1 posts its
 * receives only after rank 0 tells it to, so rank 0 knows none exists when it tests.
 */
public final class Completion {

    private static final int LARGE = 100_000;

    private Completion() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int me = MPI.COMM_WORLD.getRank();
        IntBuffer small = MPI.newIntBuffer(1);
        IntBuffer synchronous = MPI.newIntBuffer(1);
        IntBuffer large = MPI.newIntBuffer(LARGE);
        if (me == 0) {
            small.put(0, 1);
            synchronous.put(0, 2);
            large.put(LARGE - 1, 3);
            Request eager = MPI.COMM_WORLD.iSend(small, 1, MPI.INT, 1, 1);
            Request sync = MPI.COMM_WORLD.isSend(synchronous, 1, MPI.INT, 1, 2);
            Request rendezvous = MPI.COMM_WORLD.iSend(large, LARGE, MPI.INT, 1, 3);
            assertTrue(eager.test(), "a small standard send completes before its receive is posted");
            for (int i = 0; i < 1000; i++) {
                assertFalse(sync.test(), "a synchronous send completed with no receive posted");
                assertFalse(rendezvous.test(), "a large send completed with no receive posted");
            }
            MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 1, 0);
            sync.waitFor();
            rendezvous.waitFor();
        } else if (me == 1) {
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 0, 0);
            Request[] receives = {
                MPI.COMM_WORLD.iRecv(large, LARGE, MPI.INT, 0, 3),
                MPI.COMM_WORLD.iRecv(synchronous, 1, MPI.INT, 0, 2),
                MPI.COMM_WORLD.iRecv(small, 1, MPI.INT, 0, 1)};
            Request.waitAll(receives);
            assertEquals(1, small.get(0));
            assertEquals(2, synchronous.get(0));
            assertEquals(3, large.get(LARGE - 1));
        }
        MPI.Finalize();
    }
}
