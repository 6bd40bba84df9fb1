import mpi.MPI;
import mpi.MPIException;

/** Each rank says who it is, then all finalize. */
public class Hello {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        System.out.println("hello from rank " + MPI.COMM_WORLD.getRank() + " of " + MPI.COMM_WORLD.getSize());
        MPI.Finalize();
    }
}
