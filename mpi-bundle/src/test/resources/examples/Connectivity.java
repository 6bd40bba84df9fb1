import mpi.*;

/**
 * Every pair of ranks exchanges a message both ways, the lower rank first; with {@code -v} each
 * rank says which pairs it checked.
 */
public class Connectivity {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        boolean verbose = args.length > 0 && args[0].equals("-v");
        int me = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int[] value = new int[1];
        for (int lower = 0; lower < size; lower++) {
            for (int upper = lower + 1; upper < size; upper++) {
                if (me == lower) {
                    value[0] = lower;
                    MPI.COMM_WORLD.send(value, 1, MPI.INT, upper, lower);
                    Status s = MPI.COMM_WORLD.recv(value, 1, MPI.INT, upper, upper);
                    if (value[0] != upper || s.getSource() != upper) {
                        throw new AssertionError("rank " + me + " got " + value[0] + " from " + s.getSource());
                    }
                } else if (me == upper) {
                    Status s = MPI.COMM_WORLD.recv(value, 1, MPI.INT, lower, lower);
                    if (value[0] != lower || s.getSource() != lower) {
                        throw new AssertionError("rank " + me + " got " + value[0] + " from " + s.getSource());
                    }
                    value[0] = upper;
                    MPI.COMM_WORLD.send(value, 1, MPI.INT, lower, upper);
                }
                if (verbose && (me == lower || me == upper)) {
                    System.out.println("checked " + lower + " <-> " + upper);
                }
            }
        }
        MPI.COMM_WORLD.barrier();
        if (me == 0) {
            System.out.println("Connectivity of " + size + " ranks: every pair passed");
        }
        MPI.Finalize();
    }
}
