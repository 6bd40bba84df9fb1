import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Every pair of ranks exchanges a message both ways, the lower rank first; rank 0 then says how
 * many pairs it checked and which stacks its messages took.
 */
public class Connectivity {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int[] token = new int[1];
        for (int lower = 0; lower < size; lower++) {
            for (int upper = lower + 1; upper < size; upper++) {
                if (me == lower) {
                    token[0] = lower * 1000 + upper;
                    MPI.COMM_WORLD.send(token, 1, MPI.INT, upper, 1);
                    Status s = MPI.COMM_WORLD.recv(token, 1, MPI.INT, upper, 2);
                    check(token[0] == -(lower * 1000 + upper) && s.getSource() == upper, "the answer of rank " + upper);
                } else if (me == upper) {
                    MPI.COMM_WORLD.recv(token, 1, MPI.INT, lower, 1);
                    check(token[0] == lower * 1000 + upper, "the token of rank " + lower);
                    token[0] = -token[0];
                    MPI.COMM_WORLD.send(token, 1, MPI.INT, lower, 2);
                }
            }
        }
        MPI.COMM_WORLD.barrier();
        if (me == 0) {
            System.out.println("connectivity: " + size * (size - 1) / 2 + " pairs of " + size + " ranks reach each other; "
                + "rank 0 by " + MPI.COMM_WORLD.getInfo().get("polylink.stacks"));
        }
        MPI.Finalize();
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException(what + " is wrong");
        }
    }
}
