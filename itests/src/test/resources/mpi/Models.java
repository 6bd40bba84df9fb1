import mpi.MPI;
import mpi.MPIException;

/** Each rank says how many lines of link models its launcher gave it. */
public class Models {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String models = System.getenv("POLYLINK_MPI_PLOGP_MODELS");
        System.out.println("rank " + MPI.COMM_WORLD.getRank() + ": " + (models == null ? 0 : models.lines().count())
            + " lines of link models");
        MPI.Finalize();
    }
}
