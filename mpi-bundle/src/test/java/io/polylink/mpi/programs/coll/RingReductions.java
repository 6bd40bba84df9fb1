package io.polylink.mpi.programs.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.mpi.programs.SharedFiles;
import java.nio.IntBuffer;
import java.util.Set;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;

/**
 * Allreduces of more than 64 KiB among ranks of one host, from Java arrays, which go round a ring
 * a piece at a time through memory the ranks share: ints under several operations and doubles,
 * counts that split unevenly into blocks and pieces, in place and not; every result checked against
 * a sequential computation, the doubles alike at every rank to the last bit, and the algorithm each
 * took. Ranks whose data lies in buffers they share, all or some of them, take messages and say
 * why, as do vectors over 1 MiB. Repeated calls make no new shared file: each rank's ring buffer is reused.
 */
public final class RingReductions {

    private static final String RING = "shared-memory (";
    private static final String SHARED_REFUSED = "shared-memory refused: the ranks' data lies in buffers they share";
    /** Just over 64 KiB of ints, a count no rank count divides, and 1 MiB. */
    private static final int[] COUNTS = {16_385, 100_003, 262_144};

    private RingReductions() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int me = world.getRank();
        Op[] ops = {MPI.SUM, MPI.MAX, MPI.MIN, MPI.PROD, MPI.BXOR};
        for (int count : COUNTS) {
            for (int op = 0; op < ops.length; op++) {
                ints(world, count, ops[op], op, false);
                ints(world, count, ops[op], op, true);
            }
            doubles(world, count / 2, false);
            doubles(world, count / 2, true);
        }
        world.barrier();
        Set<String> files = SharedFiles.own();
        for (int round = 0; round < 30; round++) {
            ints(world, COUNTS[round % COUNTS.length], MPI.SUM, 0, round % 2 == 0);
        }
        world.barrier();
        Set<String> after = SharedFiles.own();
        after.removeAll(files);
        assertTrue(after.isEmpty(), "30 calls made shared files " + after);
        larger(world);
        shared(world, true);
        shared(world, me % 2 == 0);
        world.barrier();
        System.out.println("ring reductions: rank " + me + " of " + world.getSize() + " done");
        MPI.Finalize();
    }

    /** @param which the index of {@code op}: 0 sum, 1 max, 2 min, 3 product, 4 exclusive or */
    private static void ints(Intracomm world, int count, Op op, int which, boolean inPlace) throws MPIException {
        int me = world.getRank();
        int[] mine = new int[count];
        for (int i = 0; i < count; i++) {
            mine[i] = BlockReductions.value(me, i);
        }
        int[] got = mine;
        if (inPlace) {
            world.allReduce(mine, count, MPI.INT, op);
        } else {
            got = new int[count];
            world.allReduce(mine, got, count, MPI.INT, op);
        }
        check(world, got, count, which, "arrays" + (inPlace ? " in place" : ""));
        String chosen = world.getInfo().get("polylink.collectives");
        assertTrue(chosen.contains("allreduce: " + RING) && chosen.contains("round a ring"), chosen);
    }

    private static void check(Intracomm world, int[] got, int count, int which, String what) throws MPIException {
        int[] expected = BlockReductions.expected(world.getSize(), count, which);
        for (int i = 0; i < count; i++) {
            if (got[i] != expected[i]) {
                throw new AssertionError("int " + i + " of " + count + " (operation " + which + ", " + what + "): "
                    + got[i] + " instead of " + expected[i]);
            }
        }
    }

    /** Sums of doubles: the same values in every rank's result, whichever rank combined a block. */
    private static void doubles(Intracomm world, int count, boolean inPlace) throws MPIException {
        int n = world.getSize();
        int me = world.getRank();
        double[] mine = new double[count];
        for (int i = 0; i < count; i++) {
            mine[i] = 1.0 / (me + i + 3);
        }
        double[] got = mine;
        if (inPlace) {
            world.allReduce(mine, count, MPI.DOUBLE, MPI.SUM);
        } else {
            got = new double[count];
            world.allReduce(mine, got, count, MPI.DOUBLE, MPI.SUM);
        }
        double[] rank0 = got.clone();
        world.bcast(rank0, count, MPI.DOUBLE, 0);
        for (int i = 0; i < count; i++) {
            double sum = 0;
            for (int r = 0; r < n; r++) {
                sum += 1.0 / (r + i + 3);
            }
            if (Double.compare(got[i], rank0[i]) != 0) {
                throw new AssertionError("double " + i + ": rank " + me + " got " + got[i] + ", rank 0 " + rank0[i]);
            }
            if (Math.abs(got[i] - sum) > 1e-12 * Math.abs(sum)) {
                throw new AssertionError("double " + i + ": " + got[i] + " instead of about " + sum);
            }
        }
    }

    /** One int more than 1 MiB goes by messages, which are faster there. */
    private static void larger(Intracomm world) throws MPIException {
        int count = COUNTS[2] + 1;
        int[] mine = new int[count];
        for (int i = 0; i < count; i++) {
            mine[i] = BlockReductions.value(world.getRank(), i);
        }
        int[] got = new int[count];
        world.allReduce(mine, got, count, MPI.INT, MPI.SUM);
        check(world, got, count, 0, "arrays over 1 MiB");
        String chosen = world.getInfo().get("polylink.collectives");
        assertEquals(-1, chosen.indexOf("round a ring"), chosen);
    }

    /**
     * Sums from buffers of {@code MPI.newIntBuffer}, which the ranks share: messages send them by
     * reference in one copy, so the ranks take those, at every rank alike even where only some
     * ranks' data is shared.
     */
    private static void shared(Intracomm world, boolean mineShared) throws MPIException {
        int me = world.getRank();
        int count = COUNTS[1];
        int[] got = new int[count];
        if (mineShared) {
            IntBuffer mine = MPI.newIntBuffer(count);
            IntBuffer into = MPI.newIntBuffer(count);
            for (int i = 0; i < count; i++) {
                mine.put(i, BlockReductions.value(me, i));
            }
            world.allReduce(mine, into, count, MPI.INT, MPI.SUM);
            into.get(got, 0, count);
        } else {
            int[] mine = new int[count];
            for (int i = 0; i < count; i++) {
                mine[i] = BlockReductions.value(me, i);
            }
            world.allReduce(mine, got, count, MPI.INT, MPI.SUM);
        }
        check(world, got, count, 0, mineShared ? "shared buffers" : "arrays beside shared buffers");
        String chosen = world.getInfo().get("polylink.collectives");
        assertTrue(chosen.contains(SHARED_REFUSED), chosen);
        assertEquals(-1, chosen.indexOf("round a ring"), chosen);
    }
}
