package io.polylink.mpi.programs;

import mpi.MPI;
import mpi.MPIException;

/** Rank 2 aborts the job while the others wait for it: every rank ends with its code. */
public final class Abort {

    private Abort() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.getRank();
        if (me == 2) {
            try {
                MPI.COMM_WORLD.abort(7);
            } catch (MPIException e) {
                System.out.println("rank 2 returned from abort: " + e.getErrorClass());
            }
        } else {
            try {
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 2, 0);
            } catch (MPIException e) {
                System.out.println("rank " + me + " stopped waiting: " + e.getErrorClass() + " " + e.getMessage());
            }
            try {
                MPI.COMM_WORLD.getRank();
            } catch (MPIException e) {
                System.out.println("rank " + me + " after the abort: " + e.getMessage());
            }
        }
    }
}
