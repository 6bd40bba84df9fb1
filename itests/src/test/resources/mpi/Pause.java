import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import mpi.MPI;
import mpi.MPIException;

/**
 * Every rank says it is wired up; rank 0 waits for a line on its input; then each rank passes its
 * number to the next round the ring and says what it got.
 */
public class Pause {

    public static void main(String[] args) throws MPIException, IOException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        System.out.println("rank " + rank + " wired");
        if (rank == 0) {
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        }
        MPI.COMM_WORLD.barrier();
        int[] got = new int[1];
        MPI.COMM_WORLD.sendRecv(new int[] {rank}, 1, MPI.INT, (rank + 1) % size, 0,
            got, 1, MPI.INT, (rank + size - 1) % size, 0);
        System.out.println("rank " + rank + " got " + got[0]);
        MPI.Finalize();
    }
}
