package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.LongBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/** Messages a rank sends itself, small and large, on {@code COMM_SELF} and on the world. */
public final class SelfMessages {

    private static final int LARGE = 40_000;

    private SelfMessages() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
        assertEquals(1, MPI.COMM_SELF.getSize());
        assertEquals(0, MPI.COMM_SELF.getRank());
        assertEquals("MPI_COMM_SELF", MPI.COMM_SELF.getName());
        MPI.COMM_SELF.send(new long[] {5, 6}, 2, MPI.LONG, 0, 1);
        long[] two = new long[2];
        MPI.COMM_SELF.recv(two, 2, MPI.LONG, 0, 1);
        assertArrayEquals(new long[] {5, 6}, two);

        LongBuffer out = MPI.newLongBuffer(LARGE);
        LongBuffer in = MPI.newLongBuffer(LARGE);
        for (int i = 0; i < LARGE; i++) {
            out.put(i, -i);
        }
        Request send = MPI.COMM_SELF.iSend(out, LARGE, MPI.LONG, 0, 2);
        MPI.COMM_SELF.recv(in, LARGE, MPI.LONG, 0, 2);
        send.waitFor();
        assertEquals(-(LARGE - 1), in.get(LARGE - 1));

        int me = MPI.COMM_WORLD.getRank();
        long[] back = new long[1];
        MPI.COMM_WORLD.sendRecv(new long[] {me}, 1, MPI.LONG, me, 3, back, 1, MPI.LONG, me, 3);
        assertEquals(me, back[0]);
        MPI.COMM_WORLD.sendRecvReplace(back, 1, MPI.LONG, MPI.PROC_NULL, 4, MPI.PROC_NULL, 4);
        MPI.Finalize();
    }
}
