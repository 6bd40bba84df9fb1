import mpi.*;

/** Every rank says who it is. */
public class Hello {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        System.out.println("Hello from rank " + me + " of " + size + " on " + MPI.getProcessorName());
        MPI.Finalize();
    }
}
