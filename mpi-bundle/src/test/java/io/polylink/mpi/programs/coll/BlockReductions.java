package io.polylink.mpi.programs.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.mpi.programs.SharedFiles;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;

/**
 * Allreduces of 16 to 64 KiB among ranks of one host, which combine their blocks of the vector
 * from the others' data where it lies in memory they share: ints and doubles, several operations,
 * counts that split unevenly, from arrays and from shared buffers, in place and not, ranks mixing
 * the two; every result checked against a sequential computation, and the algorithm each took;
 * ranks that cannot map rank 0's buffer, its file deleted, take messages and say why.
 */
public final class BlockReductions {

    private static final String BLOCKS = "shared-memory";
    private static final int[] COUNTS = {4097, 5003, 16_384};
    private static final int SHARED_FROM = 16_384;

    private BlockReductions() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int n = world.getSize();
        int me = world.getRank();
        unreadable(world); // first, while rank 0's only shared file is the buffer's
        Op[] ops = {MPI.SUM, MPI.MAX, MPI.MIN, MPI.PROD, MPI.BXOR};
        for (int count : COUNTS) {
            for (int op = 0; op < ops.length; op++) {
                for (int kind = 0; kind < 4; kind++) {
                    ints(world, count, ops[op], op, kind, true);
                }
            }
            for (int kind = 0; kind < 4; kind++) {
                doubles(world, count / 2, kind);
            }
        }
        // A rank of each kind: the arrays are packed for the others to read.
        for (int round = 0; round < 50; round++) {
            ints(world, COUNTS[round % COUNTS.length], MPI.SUM, 0, me % 2 == 0 ? 0 : 2, false);
            String chosen = world.getInfo().get("polylink.collectives");
            assertTrue(chosen.contains("allreduce: " + BLOCKS + " ("), chosen);
        }
        world.barrier();
        System.out.println("block reductions: rank " + me + " of " + n + " done");
        MPI.Finalize();
    }

    /**
     * Rank 0's shared buffer loses its file before any rank mapped it: no rank can read it, so all
     * take messages, and say why.
     */
    private static void unreadable(Intracomm world) throws MPIException {
        int me = world.getRank();
        int count = 8000;
        IntBuffer mine;
        if (me == 0) {
            // The ranks of a test share a process: the others make no buffer until the barrier.
            mine = SharedFiles.unmappable(() -> MPI.newIntBuffer(count + SHARED_FROM));
            world.barrier();
        } else {
            world.barrier();
            mine = MPI.newIntBuffer(count + SHARED_FROM);
        }
        for (int i = 0; i < count; i++) {
            mine.put(i, value(me, i));
        }
        IntBuffer sum = MPI.newIntBuffer(count + SHARED_FROM);
        world.allReduce(mine, sum, count, MPI.INT, MPI.SUM);
        for (int i = 0; i < count; i++) {
            int expected = 0;
            for (int r = 0; r < world.getSize(); r++) {
                expected += value(r, i);
            }
            assertEquals(expected, sum.get(i), "int " + i + " of a sum from a buffer no rank could map");
        }
        String chosen = world.getInfo().get("polylink.collectives");
        assertTrue(chosen.contains(BLOCKS + " refused: a rank could not map another's buffer"), chosen);
    }

    /**
     * {@code kind}: 0 arrays, 1 arrays in place, 2 shared buffers, 3 shared buffers in place.
     *
     * @param which the index of {@code op}: 0 sum, 1 max, 2 min, 3 product, 4 exclusive or
     * @param alike whether every rank's buffers are of this kind: then the algorithm is checked
     */
    private static void ints(Intracomm world, int count, Op op, int which, int kind, boolean alike)
        throws MPIException {
        int me = world.getRank();
        int[] expected = expected(world.getSize(), count, which);
        int[] got = new int[count];
        if (kind < 2) {
            int[] mine = new int[count];
            for (int i = 0; i < count; i++) {
                mine[i] = value(me, i);
            }
            if (kind == 0) {
                world.allReduce(mine, got, count, MPI.INT, op);
            } else {
                world.allReduce(mine, count, MPI.INT, op);
                got = mine;
            }
        } else {
            // Buffers of 64 KiB or less are not shared: these hold more than they carry.
            IntBuffer mine = MPI.newIntBuffer(count + SHARED_FROM);
            for (int i = 0; i < count; i++) {
                mine.put(i, value(me, i));
            }
            IntBuffer into = kind == 2 ? MPI.newIntBuffer(count + SHARED_FROM) : mine;
            if (kind == 2) {
                world.allReduce(mine, into, count, MPI.INT, op);
            } else {
                world.allReduce(mine, count, MPI.INT, op);
            }
            into.get(got, 0, count).clear();
        }
        for (int i = 0; i < count; i++) {
            if (got[i] != expected[i]) {
                throw new AssertionError("int " + i + " of " + count + " (operation " + which + ", buffers " + kind
                    + "): " + got[i] + " instead of " + expected[i]);
            }
        }
        if (alike) {
            String chosen = world.getInfo().get("polylink.collectives");
            assertTrue(chosen.contains("allreduce: " + BLOCKS + " ("), chosen);
        }
    }

    /** Sums of doubles: the same values in every rank's result, whichever rank combined a block. */
    private static void doubles(Intracomm world, int count, int kind) throws MPIException {
        int n = world.getSize();
        int me = world.getRank();
        DoubleBuffer got = kind < 2 ? DoubleBuffer.allocate(count) : MPI.newDoubleBuffer(count + SHARED_FROM);
        double[] mine = new double[count];
        for (int i = 0; i < count; i++) {
            mine[i] = 1.0 / (me + i + 3);
        }
        if (kind == 0) {
            world.allReduce(mine, got.array(), count, MPI.DOUBLE, MPI.SUM);
        } else if (kind == 1) {
            world.allReduce(mine, count, MPI.DOUBLE, MPI.SUM);
            got.put(mine).clear();
        } else {
            DoubleBuffer shared = MPI.newDoubleBuffer(count + SHARED_FROM);
            shared.put(mine).clear();
            if (kind == 2) {
                world.allReduce(shared, got, count, MPI.DOUBLE, MPI.SUM);
            } else {
                world.allReduce(shared, count, MPI.DOUBLE, MPI.SUM);
                got = shared;
            }
        }
        double[] all = new double[n * count];
        double[] values = new double[count];
        got.get(values, 0, count).clear();
        world.allGather(values, count, MPI.DOUBLE, all, count, MPI.DOUBLE);
        for (int i = 0; i < count; i++) {
            double sum = 0;
            for (int r = 0; r < n; r++) {
                sum += 1.0 / (r + i + 3);
            }
            for (int r = 0; r < n; r++) {
                if (Double.compare(all[r * count + i], all[i]) != 0) {
                    throw new AssertionError("double " + i + ": rank " + r + " got " + all[r * count + i] + ", rank 0 "
                        + all[i]);
                }
            }
            if (Math.abs(all[i] - sum) > 1e-12 * Math.abs(sum)) {
                throw new AssertionError("double " + i + ": " + all[i] + " instead of about " + sum);
            }
        }
    }

    /**
     * @param which as {@link #ints}'s
     * @return every rank's {@link #value values} combined in rank order
     */
    static int[] expected(int ranks, int count, int which) {
        int[] expected = new int[count];
        for (int i = 0; i < count; i++) {
            int v = value(0, i);
            for (int r = 1; r < ranks; r++) {
                int w = value(r, i);
                v = switch (which) {
                    case 0 -> v + w;
                    case 1 -> Math.max(v, w);
                    case 2 -> Math.min(v, w);
                    case 3 -> v * w;
                    default -> v ^ w;
                };
            }
            expected[i] = v;
        }
        return expected;
    }

    /** @return rank {@code rank}'s value of element {@code i} */
    static int value(int rank, int i) {
        return (i * 2_654_435 + rank * 40_503) % 7 + (i + rank) % 3 + 1;
    }
}
