package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.function.Executable;

/**
 * Bad arguments under {@code ERRORS_RETURN}: each call throws the documented error class with a
 * message naming what was wrong, nothing is sent, and the ranks exchange a message as usual after.
 */
public final class BadArguments {

    private BadArguments() {}

    private static void fails(int errorClass, String mentions, Executable call) {
        MPIException e = assertThrows(MPIException.class, call);
        assertEquals(errorClass, e.getErrorClass(), e.getMessage());
        assertEquals(errorClass, e.getErrorCode());
        assertTrue(e.getMessage().contains(mentions), "'" + e.getMessage() + "' mentions '" + mentions + "'");
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Comm world = MPI.COMM_WORLD;
        world.setErrhandler(MPI.ERRORS_RETURN);
        assertEquals(MPI.ERRORS_RETURN, world.getErrhandler());
        int size = world.getSize();
        int[] one = new int[1];
        fails(MPI.ERR_RANK, "rank " + size + " is not in", () -> world.send(one, 1, MPI.INT, size, 0));
        fails(MPI.ERR_RANK, "rank -7", () -> world.recv(one, 1, MPI.INT, -7, 0));
        fails(MPI.ERR_RANK, "MPI.ANY_SOURCE", () -> world.recv(one, 1, MPI.INT, 99, 0));
        fails(MPI.ERR_TAG, "tag -5", () -> world.send(one, 1, MPI.INT, 0, -5));
        fails(MPI.ERR_TAG, "MPI.ANY_TAG", () -> world.recv(one, 1, MPI.INT, 0, -3));
        fails(MPI.ERR_TAG, "tag -1", () -> world.send(one, 1, MPI.INT, 0, MPI.ANY_TAG));
        fails(MPI.ERR_COUNT, "count -1", () -> world.send(one, -1, MPI.INT, 0, 0));
        fails(MPI.ERR_TYPE, "null", () -> world.send(one, 1, null, 0, 0));
        fails(MPI.ERR_TYPE, "DATATYPE_NULL", () -> world.send(one, 1, MPI.DATATYPE_NULL, 0, 0));
        Datatype pair = Datatype.createContiguous(2, MPI.INT);
        fails(MPI.ERR_TYPE, "not committed", () -> world.send(new int[2], 1, pair, 0, 0));
        fails(MPI.ERR_TYPE, "cannot hold double data", () -> world.send(one, 1, MPI.DOUBLE, 0, 0));
        fails(MPI.ERR_BUFFER, "int[1] has bytes 0 to 4", () -> world.send(one, 2, MPI.INT, 0, 0));
        fails(MPI.ERR_BUFFER, "int[1] has bytes 0 to 4", () -> world.recv(one, 5, MPI.INT, 0, 0));
        fails(MPI.ERR_BUFFER, "java.lang.String", () -> world.send("text", 1, MPI.BYTE, 0, 0));
        fails(MPI.ERR_BUFFER, "is null", () -> world.send(null, 1, MPI.INT, 0, 0));
        fails(MPI.ERR_BUFFER, "read-only", () -> world.recv(IntBuffer.allocate(1).asReadOnlyBuffer(), 1, MPI.INT, 0, 0));
        IllegalArgumentException heap = assertThrows(IllegalArgumentException.class,
            () -> world.iSend(IntBuffer.allocate(1), 1, MPI.INT, 0, 0));
        assertEquals("The buffer must be direct.", heap.getMessage());
        Comm freed = world.dup();
        freed.free();
        assertTrue(freed.isNull());
        fails(MPI.ERR_COMM, "MPI_COMM_NULL", () -> freed.send(one, 1, MPI.INT, 0, 0));
        MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
        fails(MPI.ERR_COMM, "predefined", () -> MPI.COMM_SELF.free());
        fails(MPI.ERR_TYPE, "predefined", () -> MPI.INT.free());

        // Nothing of the above reached anyone: the next message each rank receives is its neighbour's.
        int me = world.getRank();
        int[] got = new int[1];
        world.sendRecv(new int[] {me}, 1, MPI.INT, (me + 1) % size, 0, got, 1, MPI.INT, (me + size - 1) % size,
            MPI.ANY_TAG);
        assertEquals((me + size - 1) % size, got[0]);
        MPI.Finalize();
    }
}
