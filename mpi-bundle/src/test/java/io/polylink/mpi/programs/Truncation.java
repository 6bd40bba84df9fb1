package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.IntBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * A message longer than its receive buffer: the buffer is filled, the receive ends with
 * {@code ERR_TRUNCATE}, its status counts the buffer's elements, and the next message arrives
 * as usual. For an eager message and a rendezvous one, blocking and not.
 */
public final class Truncation {

    private Truncation() {}

    private static int[] numbers(int n, int base) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = base + i;
        }
        return a;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int me = MPI.COMM_WORLD.getRank();
        if (me == 0) {
            MPI.COMM_WORLD.send(numbers(10, 100), 10, MPI.INT, 1, 1);
            MPI.COMM_WORLD.send(numbers(20_000, 0), 20_000, MPI.INT, 1, 2);
            MPI.COMM_WORLD.send(numbers(10, 200), 10, MPI.INT, 1, 3);
            MPI.COMM_WORLD.send(numbers(20_000, 7), 20_000, MPI.INT, 1, 4);
            MPI.COMM_WORLD.send(numbers(5, 300), 5, MPI.INT, 1, 5);
        } else if (me == 1) {
            for (int tag = 1; tag <= 2; tag++) {
                IntBuffer small = MPI.newIntBuffer(4);
                Request r = MPI.COMM_WORLD.iRecv(small, 4, MPI.INT, 0, tag);
                Status status;
                while ((status = r.getStatus()) == null) {
                    Thread.onSpinWait();
                }
                assertEquals(MPI.ERR_TRUNCATE, status.getError(), "the status of truncated message " + tag);
                assertEquals(4, status.getCount(MPI.INT), "getCount after truncation of message " + tag);
                assertEquals(4, status.getElements(MPI.INT));
                assertEquals(0, status.getSource());
                assertEquals(tag, status.getTag());
                MPIException e = assertThrows(MPIException.class, r::waitFor);
                assertEquals(MPI.ERR_TRUNCATE, e.getErrorClass(), e.getMessage());
                assertTrue(e.getMessage().contains("does not fit the receive buffer of 16 bytes"), e.getMessage());
                assertTrue(r.isNull(), "a request that completed with an error is inactive");
                int base = tag == 1 ? 100 : 0;
                assertEquals(base + 3, small.get(3), "the buffer holds the message's first elements");
            }
            int[] into = new int[6];
            MPIException e = assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.recv(into, 6, MPI.INT, 0, 3));
            assertEquals(MPI.ERR_TRUNCATE, e.getErrorClass());
            assertArrayEquals(numbers(6, 200), into);
            int[] big = new int[100];
            e = assertThrows(MPIException.class, () -> MPI.COMM_WORLD.recv(big, 100, MPI.INT, 0, 4));
            assertEquals(MPI.ERR_TRUNCATE, e.getErrorClass());
            assertArrayEquals(numbers(100, 7), big);
            int[] after = new int[5];
            Status status = MPI.COMM_WORLD.recv(after, 5, MPI.INT, 0, 5);
            assertNotNull(status);
            assertEquals(MPI.SUCCESS, status.getError());
            assertArrayEquals(numbers(5, 300), after, "a message after the truncated ones");
        }
        MPI.Finalize();
    }
}
