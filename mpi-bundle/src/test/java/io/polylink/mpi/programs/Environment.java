package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.mpi.job.Signals;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.time.Duration;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * The environment: initialization state, time, versions, direct buffers and slices, barriers, and
 * an {@code iBarrier} that cannot complete before every rank started one.
 */
public final class Environment {

    private Environment() {}

    public static void main(String[] args) throws Exception {
        assertFalse(MPI.isInitialized());
        MPIException early = assertThrows(MPIException.class, MPI.COMM_WORLD::getRank);
        assertEquals("MPI is not initialized.", early.getMessage());
        MPI.Init(args);
        assertTrue(MPI.isInitialized());
        assertThrows(MPIException.class, () -> MPI.Init(args), "MPI is already initialized.");
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        double t0 = MPI.wtime();
        assertTrue(MPI.wtick() > 0 && MPI.wtick() < 1e-3);
        assertEquals(3, MPI.getVersion().getVersion());
        assertTrue(MPI.getLibVersion().contains("Polylink"));
        IntBuffer ints = MPI.newIntBuffer(8);
        assertTrue(ints.isDirect());
        assertEquals(ByteOrder.nativeOrder(), ints.order());
        IntBuffer tail = MPI.slice(ints, 6);
        tail.put(0, 5);
        assertEquals(5, ints.get(6));

        int me = MPI.COMM_WORLD.getRank();
        for (int i = 0; i < 5; i++) {
            MPI.COMM_WORLD.barrier();
        }
        if (me == 0) {
            Request barrier = MPI.COMM_WORLD.iBarrier();
            for (int i = 0; i < 1000; i++) {
                assertFalse(barrier.test(), "a barrier completed before rank 1 started one");
            }
            Signals.raise("tested");
            barrier.waitFor();
        } else {
            if (me == 1) {
                Signals.await("tested", Duration.ofSeconds(60));
            }
            MPI.COMM_WORLD.iBarrier().waitFor();
        }
        assertTrue(MPI.wtime() >= t0);
        MPI.Finalize();
        assertTrue(MPI.isFinalized());
        assertThrows(MPIException.class, MPI.COMM_WORLD::getRank, "MPI is finalized.");
    }
}
