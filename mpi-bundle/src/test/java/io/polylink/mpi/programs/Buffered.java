package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.IntBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Buffered-mode sends through an attached buffer: they return before any receive is posted, large
 * ones too; a message's room in the buffer comes back once it is handed over; a send that does not
 * fit fails with {@code ERR_BUFFER}; detaching waits for the messages still in the buffer.
 */
public final class Buffered {

    private static final int LARGE = 50_000;

    private Buffered() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int me = MPI.COMM_WORLD.getRank();
        if (me == 0) {
            MPIException none = assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.bSend(new int[1], 1, MPI.INT, 1, 0));
            assertEquals(MPI.ERR_BUFFER, none.getErrorClass(), none.getMessage());
            assertNull(MPI.detachBuffer(), "nothing was attached");

            // Room for the large message and one small one at a time.
            byte[] attached = new byte[LARGE * 4 + MPI.BSEND_OVERHEAD + 4 + MPI.BSEND_OVERHEAD];
            MPI.attachBuffer(attached);
            MPIException twice = assertThrows(MPIException.class, () -> MPI.attachBuffer(new byte[10]));
            assertEquals(MPI.ERR_BUFFER, twice.getErrorClass());
            int[] large = new int[LARGE];
            for (int i = 0; i < LARGE; i++) {
                large[i] = i;
            }
            MPI.COMM_WORLD.bSend(large, LARGE, MPI.INT, 1, 3);
            // The large message stays in the buffer until rank 1 receives it; each small one leaves
            // it as soon as it is handed over, so the same room takes the next.
            for (int i = 0; i < 3; i++) {
                MPI.COMM_WORLD.bSend(new int[] {i}, 1, MPI.INT, 1, i);
            }
            MPIException full = assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.bSend(large, LARGE, MPI.INT, 1, 9));
            assertEquals(MPI.ERR_BUFFER, full.getErrorClass(), full.getMessage());
            assertTrue(full.getMessage().contains("attach a larger buffer"), full.getMessage());
            // Every send returned; only now may rank 1 start receiving.
            MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 1, 10);
            assertSame(attached, MPI.detachBuffer(), "detaching returns the buffer once all was handed over");

            MPI.attachBuffer(new byte[4 + MPI.BSEND_OVERHEAD]);
            IntBuffer one = MPI.newIntBuffer(1).put(0, 77);
            Request r = MPI.COMM_WORLD.ibSend(one, 1, MPI.INT, 1, 11);
            assertTrue(r.test(), "a buffered send is complete once its data is in the buffer");
            MPI.detachBuffer();
        } else if (me == 1) {
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 0, 10);
            for (int i = 0; i < 3; i++) {
                int[] got = new int[1];
                MPI.COMM_WORLD.recv(got, 1, MPI.INT, 0, i);
                assertEquals(i, got[0]);
            }
            int[] large = new int[LARGE];
            MPI.COMM_WORLD.recv(large, LARGE, MPI.INT, 0, 3);
            assertEquals(LARGE - 1, large[LARGE - 1]);
            int[] last = new int[1];
            MPI.COMM_WORLD.recv(last, 1, MPI.INT, 0, 11);
            assertArrayEquals(new int[] {77}, last);
        }
        MPI.Finalize();
    }
}
