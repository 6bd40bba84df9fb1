package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import mpi.File;
import mpi.Intercomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;
import org.junit.jupiter.api.function.Executable;

/** Calls this bundle does not implement throw {@code MPIException} naming them; nothing is silently skipped. */
public final class Unimplemented {

    private Unimplemented() {}

    private static void names(String call, Executable e) {
        MPIException x = assertThrows(MPIException.class, e);
        assertEquals(MPI.ERR_UNSUPPORTED_OPERATION, x.getErrorClass());
        assertTrue(x.getMessage().startsWith(call + " is not implemented"), x.getMessage());
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int[] one = new int[1];
        names("MPI_Bcast", () -> MPI.COMM_WORLD.bcast(one, 1, MPI.INT, 0));
        names("MPI_Allreduce", () -> MPI.COMM_WORLD.allReduce(one, 1, MPI.INT, MPI.SUM));
        names("MPI_Iallgather", () -> MPI.COMM_WORLD.iAllGather(MPI.newIntBuffer(1), 1, MPI.INT));
        names("MPI_Scan", () -> MPI.COMM_WORLD.scan(one, 1, MPI.INT, MPI.SUM));
        names("MPI_Reduce_local", () -> mpi.Comm.reduceLocal(one, one, 1, MPI.INT, MPI.SUM));
        names("MPI_Comm_spawn", () -> MPI.COMM_WORLD.spawn("x", new String[0], 1, MPI.INFO_NULL, 0, new int[1]));
        names("MPI_Win_create", () -> new Win(MPI.newByteBuffer(8), 8, 1, MPI.INFO_NULL, MPI.COMM_WORLD));
        names("MPI_File_open", () -> new File(MPI.COMM_WORLD, "f", MPI.MODE_RDONLY));
        names("MPI_Comm_idup", () -> MPI.COMM_WORLD.iDup());
        assertTrue(Intercomm.getParent().isNull(), "no rank was spawned");
        MPI.Finalize();
    }
}
