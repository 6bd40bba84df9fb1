package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * A communicator's link hints, on ranks that have shm and tcp: a duplicate pinned to tcp takes
 * tcp while COMM_WORLD keeps shm, its own duplicates inherit the pin, hints that leave no way to
 * a rank are refused with the old links kept, and setInfo in the middle of a stream of numbered
 * messages moves the links without reordering one.
 */
public final class Links {

    private static final int MESSAGES = 2000;

    private Links() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int me = world.getRank();
        int size = world.getSize();
        assertEquals(expected(me, size, "shm"), world.getInfo().get("polylink.stacks"));

        Info tcp = new Info();
        tcp.set("polylink.stack", "tcp");
        Intracomm pinned = world.dupWithInfo(tcp);
        assertEquals(expected(me, size, "tcp"), pinned.getInfo().get("polylink.stacks"));
        assertEquals(expected(me, size, "shm"), world.getInfo().get("polylink.stacks"), "COMM_WORLD keeps its links");
        Intracomm inherited = pinned.dup();
        assertEquals(expected(me, size, "tcp"), inherited.getInfo().get("polylink.stacks"));
        inherited.free();

        Info prefer = new Info();
        prefer.set("polylink.prefer", "tcp,shm");
        Intracomm preferring = world.dupWithInfo(prefer);
        assertEquals(expected(me, size, "tcp"), preferring.getInfo().get("polylink.stacks"));
        Info forbid = new Info();
        forbid.set("polylink.forbid", "tcp");
        preferring.setInfo(forbid);
        assertEquals(expected(me, size, "shm"), preferring.getInfo().get("polylink.stacks"));

        Info nowhere = new Info();
        nowhere.set("polylink.stack", "lz4/tcp");
        pinned.setErrhandler(MPI.ERRORS_RETURN);
        MPIException refused = assertThrows(MPIException.class, () -> pinned.setInfo(nowhere));
        assertEquals(MPI.ERR_INFO_VALUE, refused.getErrorClass());
        assertTrue(refused.getMessage().contains("leave rank " + me + " no way to rank ")
            && refused.getMessage().contains("starts the transform"), refused.getMessage());
        assertEquals(expected(me, size, "tcp"), pinned.getInfo().get("polylink.stacks"), "the old links stay");
        Info garbage = new Info();
        garbage.set("polylink.stack", "tcp//shm");
        assertEquals(MPI.ERR_INFO_VALUE, assertThrows(MPIException.class, () -> pinned.setInfo(garbage)).getErrorClass());

        // Rank 0 streams numbered messages to every other rank and moves the links halfway.
        int[] number = new int[1];
        for (int k = 0; k < MESSAGES; k++) {
            if (k == MESSAGES / 2) {
                pinned.setInfo(new Info());
                assertEquals(expected(me, size, "shm"), pinned.getInfo().get("polylink.stacks"));
            }
            if (me == 0) {
                number[0] = k;
                for (int r = 1; r < size; r++) {
                    pinned.send(number, 1, MPI.INT, r, 3);
                }
            } else {
                pinned.recv(number, 1, MPI.INT, 0, 3);
                assertEquals(k, number[0], "message " + k + " from rank 0");
            }
        }
        MPI.Finalize();
    }

    /** @return the stacks a rank sees: {@code local} for itself, {@code stack} for every other */
    private static String expected(int me, int size, String stack) {
        StringBuilder s = new StringBuilder();
        for (int r = 0; r < size; r++) {
            s.append(r == 0 ? "" : ",").append(r == me ? "local" : stack);
        }
        return s.toString();
    }
}
