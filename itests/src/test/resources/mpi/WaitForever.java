import mpi.MPI;
import mpi.MPIException;

/** Every rank says its process id and waits for a message no one sends. */
public class WaitForever {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        System.out.println("rank " + MPI.COMM_WORLD.getRank() + " pid " + ProcessHandle.current().pid() + " waits");
        MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 1);
        MPI.Finalize();
    }
}
