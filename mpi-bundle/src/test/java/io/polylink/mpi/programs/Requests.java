package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.IntBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Waiting for and testing arrays of requests: which complete, the statuses and indexes returned,
 * inactive and null entries, and that a request is inactive once waited for. Rank 0 sends on tags
 * rank 1 asks for, one at a time, so rank 1 knows which of its receives can have completed.
 */
public final class Requests {

    private Requests() {}

    private static void release(int tag) throws MPIException {
        MPI.COMM_WORLD.send(new int[] {tag}, 1, MPI.INT, 0, 100);
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int me = MPI.COMM_WORLD.getRank();
        if (me == 0) {
            int[] tag = new int[1];
            while (true) {
                MPI.COMM_WORLD.recv(tag, 1, MPI.INT, 1, 100);
                if (tag[0] < 0) {
                    break;
                }
                MPI.COMM_WORLD.send(new int[] {tag[0] * 10}, 1, MPI.INT, 1, tag[0]);
            }
        } else if (me == 1) {
            IntBuffer[] in = new IntBuffer[4];
            Request[] r = new Request[5];
            for (int i = 0; i < 4; i++) {
                in[i] = MPI.newIntBuffer(1);
                r[i] = MPI.COMM_WORLD.iRecv(in[i], 1, MPI.INT, 0, i + 1);
            }
            r[4] = MPI.REQUEST_NULL;
            assertEquals(MPI.UNDEFINED, Request.testAny(r), "nothing was sent yet");
            assertNull(Request.testAnyStatus(r));
            assertEquals(0, Request.testSome(r).length);
            assertFalse(Request.testAll(r));
            assertNull(r[2].getStatus());

            release(3);
            Status any = Request.waitAnyStatus(r);
            assertEquals(2, any.getIndex());
            assertEquals(3, any.getTag());
            assertTrue(r[2].isNull(), "the completed request is inactive");
            assertEquals(30, in[2].get(0));

            release(1);
            release(4);
            while (r[3].getStatus() == null || r[0].getStatus() == null) {
                Thread.onSpinWait();
            }
            Status[] some = Request.waitSomeStatus(r);
            assertEquals(2, some.length);
            assertEquals(0, some[0].getIndex());
            assertEquals(3, some[1].getIndex());
            assertArrayEquals(new int[0], Request.testSome(r), "request 1 has not completed");

            release(2);
            Status[] all = Request.waitAllStatus(r);
            assertEquals(5, all.length);
            assertEquals(2, all[1].getTag());
            assertEquals(MPI.ANY_SOURCE, all[0].getSource(), "an inactive request's status is empty");
            assertEquals(MPI.UNDEFINED, Request.waitAny(r), "every request is inactive");
            assertNull(Request.waitSome(r));
            assertNull(Request.testSomeStatus(r));
            assertNotNull(Request.testAllStatus(r));
            assertEquals(MPI.UNDEFINED, Request.testAnyStatus(r).getIndex());

            Request freed = MPI.COMM_WORLD.iSend(MPI.newIntBuffer(1).put(0, 5), 1, MPI.INT, 1, 5);
            freed.free();
            assertTrue(freed.isNull());
            int[] five = new int[1];
            MPI.COMM_WORLD.recv(five, 1, MPI.INT, 1, 5);
            assertEquals(5, five[0], "a freed send still delivers");
            release(-1);
        }
        MPI.Finalize();
    }
}
