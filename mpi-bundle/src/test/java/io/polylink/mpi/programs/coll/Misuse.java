package io.polylink.mpi.programs.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import mpi.Datatype;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.UserFunction;

/**
 * Wrong calls fail at every rank with the MPI error class that names what is wrong, and the
 * communicator's collectives go on working after them.
 */
final class Misuse {

    private Misuse() {}

    static void run(Intracomm world) throws MPIException {
        Intracomm c = world.dup();
        c.setErrhandler(MPI.ERRORS_RETURN);
        int n = c.getSize();
        int[] data = {1, 2, 3};
        int[] out = new int[3];
        expect(MPI.ERR_ROOT, () -> c.bcast(data, 3, MPI.INT, n));
        expect(MPI.ERR_ROOT, () -> c.reduce(data, out, 3, MPI.INT, MPI.SUM, -1));
        expect(MPI.ERR_OP, () -> c.allReduce(data, out, 3, MPI.INT, MPI.MINLOC));
        expect(MPI.ERR_OP, () -> c.allReduce(new boolean[3], new boolean[3], 3, MPI.BOOLEAN, MPI.SUM));
        expect(MPI.ERR_OP, () -> c.allReduce(data, out, 3, MPI.INT, MPI.REPLACE));
        Op freed = new Op(new UserFunction() { }, true);
        freed.free();
        expect(MPI.ERR_OP, () -> c.allReduce(data, out, 3, MPI.INT, freed));
        if (n > 1 && Integer.bitCount(n) == 1) {
            // Not commutative, so not through a leader per host: among a power of two ranks every
            // rank combines, every rank meets the failure and none waits for a rank that gave up.
            Op failing = new Op(new UserFunction() {
                @Override
                public void call(ByteBuffer in, ByteBuffer inout, int count, Datatype type) {
                    throw new IllegalStateException("this operation always fails");
                }
            }, false);
            MPIException e = expect(MPI.ERR_OTHER, () -> c.allReduce(data, out, 3, MPI.INT, failing));
            assertTrue(e.getMessage().contains("this operation always fails"), e.getMessage());
            IntBuffer in = MPI.newIntBuffer(3).put(0, 1);
            IntBuffer result = MPI.newIntBuffer(3);
            expect(MPI.ERR_OTHER, () -> c.iAllReduce(in, result, 3, MPI.INT, failing).waitFor());
        }
        expect(MPI.ERR_COUNT, () -> c.allGather(data, -1, MPI.INT, out, 1, MPI.INT));
        expect(MPI.ERR_BUFFER, () -> c.allGather(data, 3, MPI.INT, out, 4, MPI.INT));
        Info bad = new Info();
        bad.set("polylink.coll.bcast", "carrier-pigeon");
        expect(MPI.ERR_INFO_VALUE, () -> c.setInfo(bad));
        Info unknown = new Info();
        unknown.set("polylink.coll.broadcast", "binomial");
        expect(MPI.ERR_INFO_KEY, () -> c.setInfo(unknown));

        c.allReduce(data, out, 3, MPI.INT, MPI.SUM);
        assertArrayEquals(new int[] {n, 2 * n, 3 * n}, out, "collectives go on after the errors");
        c.free();
    }

    @FunctionalInterface
    private interface Call {
        void run() throws MPIException;
    }

    private static MPIException expect(int errorClass, Call call) {
        MPIException e = assertThrows(MPIException.class, call::run);
        assertEquals(errorClass, e.getErrorClass(), "error class of: " + e.getMessage());
        assertTrue(!e.getMessage().isBlank(), "the error says what was wrong");
        return e;
    }
}
