import mpi.MPI;
import mpi.MPIException;

/** Rank args[0] leaves with exit code args[1] right after MPI.Init; the others wait for a message from it. */
public class ExitCode {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int leaver = Integer.parseInt(args[0]);
        if (MPI.COMM_WORLD.getRank() == leaver) {
            System.out.println("rank " + leaver + " exits with code " + args[1]);
            System.exit(Integer.parseInt(args[1]));
        }
        MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, leaver, 1);
        MPI.Finalize();
    }
}
