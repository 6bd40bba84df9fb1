import java.nio.DoubleBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Collectives among the job's ranks, each result checked against the same computation done here:
 * a broadcast from the last rank's array and one from rank 1's shared buffer, an allreduce, a
 * non-blocking allreduce, an alltoall, a gather and a scan. Rank 0 prints one line if all agree;
 * a rank that finds a wrong value exits with 3.
 */
public class Collectives {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.getRank();
        int n = MPI.COMM_WORLD.getSize();

        int[] data = new int[100_000];
        if (me == n - 1) {
            for (int i = 0; i < data.length; i++) {
                data[i] = 7 * i;
            }
        }
        MPI.COMM_WORLD.bcast(data, data.length, MPI.INT, n - 1);
        for (int i = 0; i < data.length; i++) {
            check(data[i] == 7 * i, "bcast at " + i);
        }

        DoubleBuffer shared = MPI.newDoubleBuffer(200_000);
        if (me == 1 % n) {
            for (int i = 0; i < 200_000; i++) {
                shared.put(i, 0.5 * i);
            }
        }
        MPI.COMM_WORLD.bcast(shared, 200_000, MPI.DOUBLE, 1 % n);
        for (int i = 0; i < 200_000; i++) {
            check(shared.get(i) == 0.5 * i, "bcast of a shared buffer at " + i);
        }

        double[] mine = new double[50_000];
        double[] sum = new double[mine.length];
        for (int i = 0; i < mine.length; i++) {
            mine[i] = me + i;
        }
        MPI.COMM_WORLD.allReduce(mine, sum, mine.length, MPI.DOUBLE, MPI.SUM);
        for (int i = 0; i < sum.length; i++) {
            check(sum[i] == n * (n - 1) / 2.0 + (double) n * i, "allReduce at " + i);
        }

        DoubleBuffer in = MPI.newDoubleBuffer(1_000);
        DoubleBuffer out = MPI.newDoubleBuffer(1_000);
        for (int i = 0; i < 1_000; i++) {
            in.put(i, me * i);
        }
        Request r = MPI.COMM_WORLD.iAllReduce(in, out, 1_000, MPI.DOUBLE, MPI.MAX);
        r.waitFor();
        for (int i = 0; i < 1_000; i++) {
            check(out.get(i) == (n - 1) * i, "iAllReduce at " + i);
        }

        int[] send = new int[n];
        int[] received = new int[n];
        for (int j = 0; j < n; j++) {
            send[j] = 100 * me + j;
        }
        MPI.COMM_WORLD.allToAll(send, 1, MPI.INT, received, 1, MPI.INT);
        for (int j = 0; j < n; j++) {
            check(received[j] == 100 * j + me, "allToAll from " + j);
        }

        int[] gathered = new int[n];
        MPI.COMM_WORLD.gather(new int[] {me * me}, 1, MPI.INT, gathered, 1, MPI.INT, 0);
        if (me == 0) {
            for (int j = 0; j < n; j++) {
                check(gathered[j] == j * j, "gather from " + j);
            }
        }

        int[] prefix = new int[1];
        MPI.COMM_WORLD.scan(new int[] {me + 1}, prefix, 1, MPI.INT, MPI.SUM);
        check(prefix[0] == (me + 1) * (me + 2) / 2, "scan");

        if (me == 0) {
            System.out.println("collectives: " + n + " ranks agree on bcast, allReduce, iAllReduce, allToAll, gather "
                + "and scan");
        }
        MPI.Finalize();
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("collectives: wrong value in " + what);
            System.exit(3);
        }
    }
}
