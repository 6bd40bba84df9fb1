import mpi.*;

/**
 * A counter goes round the ring of ranks; rank 0 lowers it each time it comes back, and once it
 * reaches zero every rank passes the zero on once more and stops.
 */
public class Ring {

    private static final int TAG = 201;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int next = (me + 1) % size;
        int previous = (me + size - 1) % size;
        int[] counter = new int[1];
        if (me == 0) {
            counter[0] = args.length > 0 ? Integer.parseInt(args[0]) : 10;
            System.out.println("rank 0 starts the counter at " + counter[0] + " round " + size + " ranks");
            MPI.COMM_WORLD.send(counter, 1, MPI.INT, next, TAG);
        }
        int laps = 0;
        while (true) {
            MPI.COMM_WORLD.recv(counter, 1, MPI.INT, previous, TAG);
            if (me == 0) {
                counter[0]--;
                laps++;
                System.out.println("rank 0 lowered the counter to " + counter[0]);
            }
            MPI.COMM_WORLD.send(counter, 1, MPI.INT, next, TAG);
            if (counter[0] == 0) {
                break;
            }
        }
        if (me == 0) {
            MPI.COMM_WORLD.recv(counter, 1, MPI.INT, previous, TAG);
            System.out.println("rank 0 saw " + laps + " laps");
        }
        System.out.println("rank " + me + " leaves the ring");
        MPI.Finalize();
    }
}
