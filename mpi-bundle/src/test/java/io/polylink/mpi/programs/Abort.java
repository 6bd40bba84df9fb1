package io.polylink.mpi.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * Rank 2 aborts the job while the others wait for it (or have not got that far): every rank ends
 * with its code, and every later call fails saying who aborted.
 */
public final class Abort {

    private Abort() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int me = -1;
        try {
            me = MPI.COMM_WORLD.getRank();
            if (me == 2) {
                MPI.COMM_WORLD.abort(7);
            } else {
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 2, 0);
            }
        } catch (MPIException e) {
            System.out.println("rank " + me + " stopped: " + e.getErrorClass() + " " + e.getMessage());
        }
        try {
            MPI.COMM_WORLD.getRank();
        } catch (MPIException e) {
            System.out.println("rank " + me + " after the abort: " + e.getMessage());
        }
    }
}
