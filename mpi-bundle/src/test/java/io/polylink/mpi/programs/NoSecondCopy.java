package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.List;
import mpi.MPI;
import mpi.MPIException;

/**
 * A large message's data goes from the frames it arrives in straight into the posted buffer: the
 * receiving rank's Polylink threads, which deliver it, allocate far less than the data they
 * deliver. (An early eager message is copied once, by design; a rendezvous one never.) Run with
 * chunks small enough that the methods deliver each frame without reassembling it.
 */
public final class NoSecondCopy {

    private static final int BYTES = 8 << 20;
    private static final int ROUNDS = 4;

    private NoSecondCopy() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int me = MPI.COMM_WORLD.getRank();
        ByteBuffer data = MPI.newByteBuffer(BYTES);
        if (me == 0) {
            for (int round = 0; round < ROUNDS + 2; round++) {
                data.put(BYTES - 1, (byte) round);
                MPI.COMM_WORLD.send(data, BYTES, MPI.BYTE, 1, round);
            }
        } else if (me == 1) {
            for (int round = 0; round < 2; round++) {
                MPI.COMM_WORLD.recv(data, BYTES, MPI.BYTE, 0, round);
            }
            List<Thread> mine = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("polylink-"))
                .filter(t -> t.getContextClassLoader() == NoSecondCopy.class.getClassLoader()).toList();
            assertTrue(!mine.isEmpty(), "this rank's Polylink threads");
            long before = allocated(mine);
            for (int round = 2; round < ROUNDS + 2; round++) {
                MPI.COMM_WORLD.recv(data, BYTES, MPI.BYTE, 0, round);
                assertEquals((byte) round, data.get(BYTES - 1));
            }
            long delivered = (long) ROUNDS * BYTES;
            long used = allocated(mine) - before;
            System.out.println("delivering " + delivered + " bytes allocated " + used + " bytes on " + mine.size()
                + " threads");
            assertTrue(used < delivered / 16, "the threads that delivered " + delivered + " bytes allocated " + used);
        }
        MPI.Finalize();
    }

    private static long allocated(List<Thread> threads) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        return threads.stream().mapToLong(t -> mx.getThreadAllocatedBytes(t.getId())).sum();
    }
}
