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
        names("MPI_Comm_split_type", () -> MPI.COMM_WORLD.splitType(mpi.Comm.TYPE_SHARED, 0, MPI.INFO_NULL));
        names("MPI_Graph_create", () -> MPI.COMM_WORLD.createGraph(new int[] {0}, new int[0], false));
        names("MPI_Comm_spawn", () -> MPI.COMM_WORLD.spawn("x", new String[0], 1, MPI.INFO_NULL, 0, new int[1]));
        names("MPI_Win_create", () -> new Win(MPI.newByteBuffer(8), 8, 1, MPI.INFO_NULL, MPI.COMM_WORLD));
        names("MPI_File_open", () -> new File(MPI.COMM_WORLD, "f", MPI.MODE_RDONLY));
        names("MPI_Comm_idup", () -> MPI.COMM_WORLD.iDup());
        assertTrue(Intercomm.getParent().isNull(), "no rank was spawned");
        MPI.Finalize();
    }
}
