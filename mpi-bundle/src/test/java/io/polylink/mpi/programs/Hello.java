package io.polylink.mpi.programs;

import mpi.MPI;
import mpi.MPIException;

/** Every rank says who it is. */
public final class Hello {

    private Hello() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        System.out.println("Hello from rank " + me + " of " + size + " on " + MPI.getProcessorName());
        MPI.Finalize();
    }
}
