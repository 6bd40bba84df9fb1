package io.polylink.mpi.programs.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.DoubleBuffer;
import mpi.Datatype;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.UserFunction;

/**
 * Small blocking barriers and allreduces among ranks of one host, which meet in memory the ranks
 * share: the algorithm each took, results every rank gets to the last bit (a sum of doubles whose
 * value depends on the order it is added in), thousands of calls in a row with barriers between
 * some (each call's data in the slots of its parity), a communicator of some of the ranks, and
 * the calls that do not meet there: larger ones, and those the info sends elsewhere.
 *
 * <p>Argument {@code refused=TEXT}: the ranks cannot meet (their messages go by tcp); the
 * explanation must contain {@code TEXT}, and the results must be the same.
 */
public final class Meetings {

    private static final String MEETING = "shared-memory";

    private Meetings() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String refused = args.length > 0 && args[0].startsWith("refused=") ? args[0].substring(8) : null;
        Intracomm world = MPI.COMM_WORLD;
        int n = world.getSize();
        int me = world.getRank();

        world.barrier();
        String chosen = world.getInfo().get("polylink.collectives");
        if (refused == null) {
            assertTrue(chosen.contains("barrier: " + MEETING), chosen);
        } else {
            assertTrue(chosen.matches("(?s).*barrier: tree \\(" + MEETING + " refused: no memory shared by the ranks: .*")
                && chosen.contains(refused), chosen);
        }

        if (refused != null) {
            Info named = new Info();
            named.set("polylink.coll.allreduce", MEETING);
            Intracomm asked = world.dupWithInfo(named);
            double[] total = new double[1];
            asked.allReduce(new double[] {me + 1}, total, 1, MPI.DOUBLE, MPI.SUM);
            assertEquals(n * (n + 1) / 2.0, total[0]);
            String askedChosen = asked.getInfo().get("polylink.collectives");
            assertTrue(askedChosen.contains("allreduce: recursive-doubling (polylink.coll.allreduce=" + MEETING
                + " refused: no memory shared by the ranks: ") && askedChosen.contains(refused), askedChosen);
            asked.free();
        }
        orderedSum(world, refused);
        manyInARow(world);

        String after = world.getInfo().get("polylink.collectives");
        if (refused == null) {
            assertTrue(after.contains("bcast: " + MEETING) && after.contains("allreduce: " + MEETING), after);
        }

        // Past a slot: messages; from 16 KiB in blocks read where they lie, from arrays among more
        // than two ranks; a user's operation and calls named away by the info: messages.
        double[] large = new double[129];
        java.util.Arrays.fill(large, me + 1);
        double[] sum = new double[large.length];
        world.allReduce(large, sum, large.length, MPI.DOUBLE, MPI.SUM);
        assertEquals(n * (n + 1) / 2.0, sum[128]);
        assertTrue(world.getInfo().get("polylink.collectives").contains("allreduce: recursive-doubling (1032 bytes"),
            world.getInfo().get("polylink.collectives"));
        double[] mid = new double[2100];
        java.util.Arrays.fill(mid, me + 1);
        double[] midSum = new double[mid.length];
        world.allReduce(mid, midSum, mid.length, MPI.DOUBLE, MPI.SUM);
        assertEquals(n * (n + 1) / 2.0, midSum[2099]);
        String midChosen = world.getInfo().get("polylink.collectives");
        assertTrue(midChosen.contains(refused != null ? MEETING + " refused: no memory shared" : "allreduce: "
            + MEETING + " (" + n + " ranks on one host, 16800 bytes"), midChosen);
        Op max = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
                double[] a = (double[]) in;
                double[] b = (double[]) inOut;
                for (int i = 0; i < count; i++) {
                    b[i] = Math.max(a[i], b[i]);
                }
            }
        }, true);
        world.allReduce(large, sum, large.length, MPI.DOUBLE, max);
        assertEquals(n, sum[128]);
        String userChosen = world.getInfo().get("polylink.collectives");
        assertTrue(userChosen.matches("(?s).*allreduce: recursive-doubling \\([^)]*the user operation .*"), userChosen);
        max.free();
        Info info = new Info();
        info.set("polylink.coll.allreduce", "recursive-doubling");
        info.set("polylink.coll.barrier", "dissemination");
        Intracomm away = world.dupWithInfo(info);
        away.barrier();
        double[] one = {me + 1};
        double[] total = new double[1];
        away.allReduce(one, total, 1, MPI.DOUBLE, MPI.SUM);
        assertEquals(n * (n + 1) / 2.0, total[0]);
        String awayChosen = away.getInfo().get("polylink.collectives");
        assertTrue(awayChosen.contains("allreduce: recursive-doubling (polylink.coll.allreduce=recursive-doubling)")
            && awayChosen.contains("barrier: dissemination (polylink.coll.barrier=dissemination)"), awayChosen);
        away.free();

        // The even ranks meet apart, in an area of their own, while the odd ones do too.
        Intracomm half = world.split(me % 2, me);
        double[] mine = {1 << me};
        double[] halfSum = new double[1];
        for (int i = 0; i < 100; i++) {
            half.allReduce(mine, halfSum, 1, MPI.DOUBLE, MPI.SUM);
            double expected = 0;
            for (int r = me % 2; r < n; r += 2) {
                expected += 1 << r;
            }
            assertEquals(expected, halfSum[0], "the sum over the ranks of parity " + me % 2);
        }
        if (half.getSize() > 1 && refused == null) {
            assertTrue(half.getInfo().get("polylink.collectives").contains("allreduce: " + MEETING),
                half.getInfo().get("polylink.collectives"));
        }
        half.free();
        System.out.println("meetings: rank " + me + " of " + n + " done");
        MPI.Finalize();
    }

    /**
     * Values whose double sum depends on the order they are added in: every rank gets the sum in
     * rank order, bit for bit, from arrays and from direct buffers, in place or not.
     */
    private static void orderedSum(Intracomm world, String refused) throws MPIException {
        int n = world.getSize();
        int me = world.getRank();
        double[] values = new double[n];
        for (int r = 0; r < n; r++) {
            values[r] = r % 2 == 0 ? 1e16 + r : 1.0 / (r + 3);
        }
        double expected = 0;
        for (int r = 0; r < n; r++) {
            expected = r == 0 ? values[0] : expected + values[r];
        }
        double[] got = new double[1];
        world.allReduce(new double[] {values[me]}, got, 1, MPI.DOUBLE, MPI.SUM);
        String chosen = world.getInfo().get("polylink.collectives");
        if (refused == null) {
            assertEquals(Double.doubleToLongBits(expected), Double.doubleToLongBits(got[0]),
                "the sum in rank order: " + expected + ", got " + got[0]);
            assertTrue(chosen.contains("allreduce: " + MEETING), chosen);
        } else {
            assertTrue(chosen.contains("allreduce: recursive-doubling"), chosen);
        }
        double[] all = new double[n];
        world.allGather(got, 1, MPI.DOUBLE, all, 1, MPI.DOUBLE);
        for (int r = 0; r < n; r++) {
            assertEquals(Double.doubleToLongBits(got[0]), Double.doubleToLongBits(all[r]),
                "rank " + r + " got " + all[r] + ", rank " + me + " " + got[0]);
        }

        DoubleBuffer in = MPI.newDoubleBuffer(3);
        DoubleBuffer out = MPI.newDoubleBuffer(3);
        for (int i = 0; i < 3; i++) {
            in.put(i, values[me] * (i + 1));
        }
        world.allReduce(in, out, 3, MPI.DOUBLE, MPI.MAX);
        double[] inPlace = {values[me], me};
        world.allReduce(inPlace, 2, MPI.DOUBLE, MPI.MIN);
        for (int i = 0; i < 3; i++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int r = 0; r < n; r++) {
                max = Math.max(max, values[r] * (i + 1));
            }
            assertEquals(max, out.get(i), "MAX of direct buffers, element " + i);
        }
        double min = Double.POSITIVE_INFINITY;
        for (double v : values) {
            min = Math.min(min, v);
        }
        assertArrayEquals(new double[] {min, 0}, inPlace, "MIN in place");
    }

    /**
     * Thousands of calls in a row: broadcasts from every root in turn, an allreduce after every
     * third, a barrier after every hundredth. A root runs ahead of the ranks still reading its last
     * broadcasts, and overwrites no slot they read.
     */
    private static void manyInARow(Intracomm world) throws MPIException {
        int n = world.getSize();
        int me = world.getRank();
        long[] mine = new long[4];
        long[] sum = new long[4];
        for (int call = 0; call < 5_000; call++) {
            int root = call % n;
            long[] sent = new long[3];
            for (int i = 0; i < sent.length; i++) {
                sent[i] = me == root ? 31L * call + i : -1;
            }
            world.bcast(sent, sent.length, MPI.LONG, root);
            for (int i = 0; i < sent.length; i++) {
                if (sent[i] != 31L * call + i) {
                    throw new AssertionError("broadcast " + call + " from rank " + root + ", element " + i + ": "
                        + sent[i]);
                }
            }
            if (call % 3 != 0) {
                continue;
            }
            for (int i = 0; i < mine.length; i++) {
                mine[i] = (long) call * (me + 1) + i;
            }
            world.allReduce(mine, sum, mine.length, MPI.LONG, MPI.SUM);
            for (int i = 0; i < mine.length; i++) {
                long expected = (long) call * n * (n + 1) / 2 + (long) i * n;
                if (sum[i] != expected) {
                    throw new AssertionError("call " + call + ", element " + i + ": " + sum[i] + " != " + expected);
                }
            }
            if (call % 100 == 0) {
                world.barrier();
            }
        }
    }
}
