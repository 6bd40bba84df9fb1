package io.polylink.mpi.programs.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.DoubleBuffer;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Broadcasts among ranks at several sites, from a root at each site in turn, of sizes from none to
 * a megabyte, blocking and not, as arrays and as direct buffers: every rank gets the root's data,
 * and the algorithm taken is the one the first argument names ({@code magpie} or
 * {@code magpie-pipelined}); a communicator whose info names {@code magpie} takes it whatever the
 * job's models. Rank 0 prints each choice.
 */
public final class WideArea {

    private WideArea() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        String expected = args[0];
        int me = world.getRank();
        int n = world.getSize();
        for (int root = 0; root < n; root++) {
            for (int count : new int[] {0, 1, 1000, 131_072}) {
                double[] data = new double[count];
                if (me == root) {
                    for (int i = 0; i < count; i++) {
                        data[i] = root * 1e6 + i;
                    }
                }
                world.bcast(data, count, MPI.DOUBLE, root);
                check(data, root, count, "bcast");
                assertTrue(world.getInfo().get("polylink.collectives").startsWith("bcast: " + expected + " ("),
                    world.getInfo().get("polylink.collectives"));
                DoubleBuffer direct = MPI.newDoubleBuffer(Math.max(1, count));
                if (me == root) {
                    for (int i = 0; i < count; i++) {
                        direct.put(i, root * 1e6 + i);
                    }
                }
                Request r = world.iBcast(direct, count, MPI.DOUBLE, root);
                r.waitFor();
                double[] got = new double[count];
                direct.get(0, got, 0, count);
                check(got, root, count, "iBcast");
            }
        }
        if (me == 0) {
            System.out.println("choice: " + world.getInfo().get("polylink.collectives"));
        }
        Info original = new Info();
        original.set("polylink.coll.bcast", "magpie");
        Intracomm named = world.dupWithInfo(original);
        int[] token = {me == n - 1 ? 42 : 0};
        named.bcast(token, 1, MPI.INT, n - 1);
        assertEquals(42, token[0]);
        assertTrue(named.getInfo().get("polylink.collectives").startsWith("bcast: magpie (polylink.coll.bcast=magpie"),
            named.getInfo().get("polylink.collectives"));
        named.free();
        MPI.Finalize();
    }

    private static void check(double[] data, int root, int count, String what) {
        double[] expected = new double[count];
        for (int i = 0; i < count; i++) {
            expected[i] = root * 1e6 + i;
        }
        assertArrayEquals(expected, data, what + " of " + count + " doubles from rank " + root);
    }
}
