import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Ranks 0 and 1 exchange numbered messages, each sending message k while it receives the other's
 * message k, until the file args[0] exists; each checks that every number came once and in order.
 * Each says by which stack it reaches the other when it starts and whenever that changes.
 */
public class Numbered {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int me = world.getRank();
        int peer = 1 - me;
        Path stop = Path.of(args[0]);
        IntBuffer out = MPI.newIntBuffer(2);
        int[] in = new int[2];
        String stack = null;
        int k = 0;
        for (boolean going = true; going; k++) {
            if (k % 64 == 0) {
                String now = world.getInfo().get("polylink.stacks").split(",")[peer];
                if (!now.equals(stack)) {
                    System.out.println("rank " + me + " reaches rank " + peer + " by " + now + " from message " + k);
                    stack = now;
                }
            }
            boolean last = me == 0 && k % 1024 == 0 && Files.exists(stop);
            out.put(0, k).put(1, last ? 1 : 0);
            Request sent = world.iSend(out, 2, MPI.INT, peer, 1);
            world.recv(in, 2, MPI.INT, peer, 1);
            sent.waitFor();
            if (in[0] != k) {
                throw new IllegalStateException("rank " + me + " expected message " + k + " and got " + in[0]);
            }
            going = !(me == 0 ? last : in[1] == 1);
        }
        System.out.println("rank " + me + " received " + k + " numbered messages, each once and in order");
        MPI.Finalize();
    }
}
