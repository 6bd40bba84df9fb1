package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * Persistent requests: one set of send and receive requests, made once, carries twenty exchanges,
 * in every send mode, small and large; a request stays usable between them, cannot be started
 * while active, and is null once freed.
 */
public final class Persistent {

    private static final int ROUNDS = 20;
    private static final int LARGE = 10_000;

    private Persistent() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int me = MPI.COMM_WORLD.getRank();
        int peer = 1 - me;
        MPI.attachBuffer(new byte[2 * (4 + MPI.BSEND_OVERHEAD)]);
        IntBuffer small = MPI.newIntBuffer(1);
        DoubleBuffer large = MPI.newDoubleBuffer(LARGE);
        IntBuffer[] modes = {MPI.newIntBuffer(1), MPI.newIntBuffer(1), MPI.newIntBuffer(1)};
        Prequest[] requests;
        if (me == 0) {
            requests = new Prequest[] {
                MPI.COMM_WORLD.sendInit(small, 1, MPI.INT, peer, 1),
                MPI.COMM_WORLD.sendInit(large, LARGE, MPI.DOUBLE, peer, 2),
                MPI.COMM_WORLD.bSendInit(modes[0], 1, MPI.INT, peer, 3),
                MPI.COMM_WORLD.sSendInit(modes[1], 1, MPI.INT, peer, 4),
                MPI.COMM_WORLD.rSendInit(modes[2], 1, MPI.INT, peer, 5)};
        } else {
            requests = new Prequest[] {
                MPI.COMM_WORLD.recvInit(small, 1, MPI.INT, peer, 1),
                MPI.COMM_WORLD.recvInit(large, LARGE, MPI.DOUBLE, peer, 2),
                MPI.COMM_WORLD.recvInit(modes[0], 1, MPI.INT, peer, 3),
                MPI.COMM_WORLD.recvInit(modes[1], 1, MPI.INT, peer, 4),
                MPI.COMM_WORLD.recvInit(modes[2], 1, MPI.INT, peer, 5)};
        }
        for (Prequest r : requests) {
            assertFalse(r.isNull(), "an inactive persistent request is not null");
            assertEquals(MPI.ANY_SOURCE, r.waitStatus().getSource(), "waiting for an inactive request");
        }
        for (int round = 0; round < ROUNDS; round++) {
            if (me == 1) {
                Prequest.startAll(requests);
                MPIException e = assertThrows(MPIException.class, requests[0]::start);
                assertEquals(MPI.ERR_REQUEST, e.getErrorClass(), e.getMessage());
            }
            MPI.COMM_WORLD.barrier();
            if (me == 0) {
                small.put(0, round);
                large.put(LARGE - 1, round * 0.5);
                for (int m = 0; m < 3; m++) {
                    modes[m].put(0, round * 10 + m);
                }
                Prequest.startAll(requests);
            }
            Status[] statuses = Request.waitAllStatus(requests);
            if (me == 1) {
                assertEquals(round, small.get(0));
                assertEquals(round * 0.5, large.get(LARGE - 1));
                assertEquals(LARGE, statuses[1].getCount(MPI.DOUBLE));
                for (int m = 0; m < 3; m++) {
                    assertEquals(round * 10 + m, modes[m].get(0), "send mode " + m + " in round " + round);
                    assertEquals(3 + m, statuses[2 + m].getTag());
                }
            }
        }
        for (Prequest r : requests) {
            r.free();
            assertTrue(r.isNull(), "a freed persistent request is null");
        }
        MPI.detachBuffer();
        MPI.Finalize();
    }
}
