import mpi.MPI;
import mpi.MPIException;

/** Once all ranks are up, rank 1 aborts the job with code 3; the others wait for a message that never comes. */
public class Abort {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.barrier();
        if (MPI.COMM_WORLD.getRank() == 1) {
            MPI.COMM_WORLD.abort(3);
        }
        MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 1);
        MPI.Finalize();
    }
}
