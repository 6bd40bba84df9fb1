import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Rank 1 says its process id and waits; rank 0 waits for a message from rank 1, rank 2 for one
 * from any rank, rank 3 in a probe for one from rank 1, rank 4 in a barrier of all the ranks (which
 * meet in memory they share, where no message comes). Errors return, so that each survivor says
 * how its wait ended; then the survivors meet in a barrier of their own, so that none ends before
 * all were told, and leave.
 */
public class Survivors {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        world.setErrhandler(MPI.ERRORS_RETURN);
        int me = world.getRank();
        Intracomm survivors = null;
        if (me != 1) {
            Group others = world.getGroup().excl(new int[] {1});
            survivors = world.createGroup(others, 7);
        }
        world.barrier();
        if (me == 1) {
            System.out.println("rank 1 pid " + ProcessHandle.current().pid() + " waits");
            world.recv(new int[1], 1, MPI.INT, 0, 1);
            return;
        }
        try {
            switch (me) {
                case 0 -> world.recv(new int[1], 1, MPI.INT, 1, 1);
                case 2 -> world.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 1);
                case 3 -> world.probe(1, 1);
                default -> world.barrier();
            }
            System.out.println("rank " + me + " was not told");
        } catch (MPIException e) {
            System.out.println("rank " + me + " was told (error class " + e.getErrorClass() + "): " + e.getMessage());
        }
        survivors.barrier();
        System.exit(0);
    }
}
