package io.polylink.mpi.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * Under the default {@code ERRORS_ARE_FATAL}, rank 1 sends to a rank that does not exist: the job
 * ends, every rank with the error class as its exit status, and the others, waiting for a message
 * that will not come (or not yet that far, even still in {@code MPI.Init}), are freed from their
 * calls.
 */
public final class FatalError {

    private FatalError() {}

    public static void main(String[] args) throws MPIException {
        int me = -1;
        try {
            // In the try: a rank still starting when rank 1 aborts is stopped in Init itself.
            MPI.Init(args);
            me = MPI.COMM_WORLD.getRank();
            if (me == 1) {
                MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 17, 0);
                System.out.println("rank 1 went on after a fatal error");
            } else {
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 1, 0);
                System.out.println("rank " + me + " received a message no one sent");
            }
        } catch (MPIException e) {
            if (me == 1) {
                throw e;
            }
            System.out.println("rank " + me + " stopped waiting: " + e.getErrorClass() + " " + e.getMessage());
        }
    }
}
