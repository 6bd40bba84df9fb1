package io.polylink.mpi.programs;

import mpi.MPI;
import mpi.MPIException;

/** Initializes and finalizes, printing why {@code MPI.Init} failed if it does. */
public final class InitOnly {

    private InitOnly() {}

    public static void main(String[] args) throws MPIException {
        try {
            MPI.Init(args);
        } catch (MPIException e) {
            System.out.println("Init failed: " + e.getErrorClass() + " " + e.getMessage());
            System.out.println("isInitialized " + MPI.isInitialized());
            return;
        }
        System.out.println("rank " + MPI.COMM_WORLD.getRank() + " of " + MPI.COMM_WORLD.getSize());
        MPI.Finalize();
        System.out.println("isFinalized " + MPI.isFinalized());
    }
}
