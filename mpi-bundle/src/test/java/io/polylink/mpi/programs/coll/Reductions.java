package io.polylink.mpi.programs.coll;

import static io.polylink.mpi.programs.coll.Data.filled;
import static io.polylink.mpi.programs.coll.Data.of;
import static io.polylink.mpi.programs.coll.Data.slice;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.UserFunction;

/**
 * The reductions, each in its blocking, in-place and non-blocking forms, with a predefined
 * operation, a commutative user operation and one that is not ({@link Matrices}), checked
 * against the same reduction done in rank order.
 */
final class Reductions {

    private final Intracomm c;
    private final int n;
    private final int me;
    private final Datatype matrix;
    private final Op product = new Op(new Matrices(), false);
    private final Op doubleSum = new Op(new UserFunction() {
        @Override
        public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) {
            for (int i = 0; i < count; i++) {
                inOut.putDouble(8 * i, in.getDouble(8 * i) + inOut.getDouble(8 * i));
            }
        }
    }, true);
    private final Op allTrue = new Op(new UserFunction() {
        @Override
        public void call(Object in, Object inOut, int count, Datatype type) {
            boolean[] a = (boolean[]) in;
            boolean[] b = (boolean[]) inOut;
            for (int i = 0; i < count; i++) {
                b[i] &= a[i];
            }
        }
    }, true);
    private int salt;

    Reductions(Intracomm c, int firstSalt) throws MPIException {
        this.c = c;
        this.n = c.getSize();
        this.me = c.getRank();
        this.salt = firstSalt;
        this.matrix = Datatype.createContiguous(4, MPI.INT);
        matrix.commit();
    }

    void run() throws MPIException {
        reduce();
        allReduce();
        reduceScatter();
        scan();
        local();
    }

    private int[] sum(int s, int from, int count) {
        return Data.sum(n, s, from, count);
    }

    void reduce() throws MPIException {
        for (int root : n == 1 ? new int[] {0} : new int[] {0, n - 1}) {
            for (int count : new int[] {0, 1, 1_000, 20_000}) {
                int s = ++salt;
                int[] recv = filled(count, -1);
                c.reduce(of(me, s, count), recv, count, MPI.INT, MPI.SUM, root);
                if (me == root) {
                    assertArrayEquals(sum(s, 0, count), recv, "reduce SUM of " + count + " to " + root);
                }
            }
            int s = ++salt;
            int[] buf = of(me, s, 20_000); // past the size where reductions go in segments
            c.reduce(buf, 20_000, MPI.INT, MPI.MAX, root);
            if (me == root) {
                for (int i = 0; i < 20_000; i++) {
                    int max = Integer.MIN_VALUE;
                    for (int r = 0; r < n; r++) {
                        max = Math.max(max, Data.value(r, s, i));
                    }
                    assertEquals(max, buf[i], "reduce MAX in place at " + i);
                }
            }
            s = ++salt;
            int[] recv = new int[8];
            c.reduce(Matrices.of(me, s, 2), recv, 2, matrix, product, root);
            if (me == root) {
                assertArrayEquals(Matrices.product(0, n, s, 2), recv, "reduce of matrices in rank order to " + root);
            }
            s = ++salt;
            double[] d = doubles(me, s, 4);
            double[] dr = new double[4];
            c.reduce(d, dr, 4, MPI.DOUBLE, doubleSum, root);
            if (me == root) {
                assertArrayEquals(doubleSums(s, 4), dr, "reduce with a commutative user operation");
            }
            s = ++salt;
            IntBuffer send = MPI.newIntBuffer(6).put(of(me, s, 6));
            IntBuffer into = MPI.newIntBuffer(6);
            c.iReduce(send, into, 6, MPI.INT, MPI.SUM, root).waitFor();
            if (me == root) {
                assertArrayEquals(sum(s, 0, 6), array(into), "iReduce");
            }
        }
    }

    private static double[] doubles(int rank, int s, int count) {
        double[] out = new double[count];
        for (int i = 0; i < count; i++) {
            out[i] = Data.value(rank, s, i);
        }
        return out;
    }

    private double[] doubleSums(int s, int count) {
        double[] out = new double[count];
        for (int r = 0; r < n; r++) {
            for (int i = 0; i < count; i++) {
                out[i] += Data.value(r, s, i);
            }
        }
        return out;
    }

    private static int[] array(IntBuffer b) {
        int[] out = new int[b.capacity()];
        b.clear();
        b.get(out);
        return out;
    }

    void allReduce() throws MPIException {
        for (int count : new int[] {0, 1, 3, 5_000}) {
            int s = ++salt;
            int[] recv = filled(count, -1);
            c.allReduce(of(me, s, count), recv, count, MPI.INT, MPI.SUM);
            assertArrayEquals(sum(s, 0, count), recv, "allReduce SUM of " + count);
            s = ++salt;
            int[] buf = of(me, s, count);
            c.allReduce(buf, count, MPI.INT, MPI.SUM);
            assertArrayEquals(sum(s, 0, count), buf, "allReduce SUM in place of " + count);
        }
        int s = ++salt;
        double[] d = new double[5_000];
        c.allReduce(doubles(me, s, 5_000), d, 5_000, MPI.DOUBLE, MPI.SUM);
        assertArrayEquals(doubleSums(s, 5_000), d, "allReduce SUM of doubles");
        for (int count : new int[] {1, 3}) {
            s = ++salt;
            int[] recv = new int[4 * count];
            c.allReduce(Matrices.of(me, s, count), recv, count, matrix, product);
            assertArrayEquals(Matrices.product(0, n, s, count), recv, "allReduce of matrices in rank order");
        }
        s = ++salt;
        double[] buf = doubles(me, s, 300);
        c.allReduce(buf, 300, MPI.DOUBLE, doubleSum);
        assertArrayEquals(doubleSums(s, 300), buf, "allReduce in place with a commutative user operation");
        s = ++salt;
        boolean[] flags = new boolean[6];
        for (int i = 0; i < 6; i++) {
            flags[i] = i != me;
        }
        c.allReduce(flags, 6, MPI.BOOLEAN, allTrue);
        for (int i = 0; i < 6; i++) {
            assertEquals(i >= n, flags[i], "allReduce of booleans with a user operation at " + i);
        }
        s = ++salt;
        IntBuffer send = MPI.newIntBuffer(20_000).put(of(me, s, 20_000));
        IntBuffer recv = MPI.newIntBuffer(20_000);
        c.iAllReduce(send, recv, 20_000, MPI.INT, MPI.SUM).waitFor();
        assertArrayEquals(sum(s, 0, 20_000), array(recv), "iAllReduce");
        s = ++salt;
        DoubleBuffer inPlace = MPI.newDoubleBuffer(7).put(doubles(me, s, 7));
        c.iAllReduce(inPlace, 7, MPI.DOUBLE, MPI.SUM).waitFor();
        double[] got = new double[7];
        inPlace.clear();
        inPlace.get(got);
        assertArrayEquals(doubleSums(s, 7), got, "iAllReduce in place");
        largeDirectBuffers();
    }

    /**
     * Reductions of direct buffers larger than the eager limit, which the kernels combine in place
     * in staged chunks and whose exchanges go by rendezvous (read where they lie, on one host): a
     * count that ends mid-chunk, a maximum, bytes, and in place.
     */
    private void largeDirectBuffers() throws MPIException {
        int count = 100_003;
        int s = ++salt;
        DoubleBuffer send = MPI.newDoubleBuffer(count).put(doubles(me, s, count));
        DoubleBuffer into = MPI.newDoubleBuffer(count);
        c.allReduce(send, into, count, MPI.DOUBLE, MPI.SUM);
        double[] got = new double[count];
        into.clear();
        into.get(got);
        assertArrayEquals(doubleSums(s, count), got, "allReduce of a large direct buffer");
        double[] sent = new double[count];
        send.clear();
        send.get(sent);
        assertArrayEquals(doubles(me, s, count), sent, "the send buffer of an allReduce, after it");
        mixedOperands(count);
        c.allReduce(send, into, count, MPI.DOUBLE, MPI.MAX);
        into.clear();
        into.get(got);
        for (int i = 0; i < count; i++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int r = 0; r < n; r++) {
                max = Math.max(max, Data.value(r, s, i));
            }
            assertEquals(max, got[i], "allReduce MAX of a large direct buffer at " + i);
        }
        ByteBuffer bytes = MPI.newByteBuffer(count);
        for (int i = 0; i < count; i++) {
            bytes.put(i, (byte) Data.value(me, s, i));
        }
        c.allReduce(bytes, count, MPI.BYTE, MPI.BXOR);
        for (int i = 0; i < count; i++) {
            byte x = 0;
            for (int r = 0; r < n; r++) {
                x ^= (byte) Data.value(r, s, i);
            }
            assertEquals(x, bytes.get(i), "allReduce BXOR in place of a large byte buffer at " + i);
        }
        DoubleBuffer root = MPI.newDoubleBuffer(count);
        c.reduce(send, root, count, MPI.DOUBLE, MPI.SUM, n - 1);
        if (me == n - 1) {
            root.clear();
            root.get(got);
            assertArrayEquals(doubleSums(s, count), got, "reduce of a large direct buffer");
        }
        int part = 6_000; // exchanges of 16 to 64 KiB, from shared buffers: by reference
        s = ++salt;
        send.clear();
        send.put(doubles(me, s, part));
        c.allReduce(send, into, part, MPI.DOUBLE, MPI.SUM);
        double[] sums = new double[part];
        into.clear();
        into.get(sums);
        assertArrayEquals(doubleSums(s, part), sums, "allReduce of 48 KB of large direct buffers");
    }

    /**
     * Large allreduces whose send buffer and result buffer are of different kinds (a direct buffer
     * and an array), which combine what arrives with the send buffer's values where they lie: the
     * result is right and the send buffer as it was.
     */
    private void mixedOperands(int count) throws MPIException {
        int s = ++salt;
        DoubleBuffer send = MPI.newDoubleBuffer(count).put(doubles(me, s, count));
        double[] into = new double[count];
        c.allReduce(send, into, count, MPI.DOUBLE, MPI.SUM);
        assertArrayEquals(doubleSums(s, count), into, "allReduce of a large direct buffer into an array");
        double[] sent = new double[count];
        send.clear();
        send.get(sent);
        assertArrayEquals(doubles(me, s, count), sent, "a direct send buffer after an allReduce into an array");
        s = ++salt;
        int[] ints = of(me, s, count);
        IntBuffer intsInto = MPI.newIntBuffer(count);
        c.allReduce(ints, intsInto, count, MPI.INT, MPI.SUM);
        assertArrayEquals(sum(s, 0, count), array(intsInto), "allReduce of a large array into a direct buffer");
        assertArrayEquals(of(me, s, count), ints, "an array sent by an allReduce into a direct buffer");
        s = ++salt;
        ints = of(me, s, count);
        int[] sums = filled(count, -1);
        c.allReduce(ints, sums, count, MPI.INT, MPI.SUM);
        assertArrayEquals(sum(s, 0, count), sums, "allReduce of a large array into an array");
        assertArrayEquals(of(me, s, count), ints, "an array sent by an allReduce into an array");
    }

    void reduceScatter() throws MPIException {
        int[] counts = new int[n];
        int total = 0;
        for (int i = 0; i < n; i++) {
            counts[i] = i == 1 ? 0 : (i % 3 + 1) * 30;
            total += counts[i];
        }
        int from = 0;
        for (int i = 0; i < me; i++) {
            from += counts[i];
        }
        int s = ++salt;
        int[] recv = filled(counts[me], -1);
        c.reduceScatter(of(me, s, total), recv, counts, MPI.INT, MPI.SUM);
        assertArrayEquals(sum(s, from, counts[me]), recv, "reduceScatter");
        s = ++salt;
        int[] buf = of(me, s, total);
        c.reduceScatter(buf, counts, MPI.INT, MPI.SUM);
        assertArrayEquals(sum(s, from, counts[me]), slice(buf, 0, counts[me]), "reduceScatter in place");

        s = ++salt;
        int[] m = new int[4 * (me % 2 + 1)];
        int[] mcounts = new int[n];
        int mfrom = 0;
        int mtotal = 0;
        for (int i = 0; i < n; i++) {
            mcounts[i] = i % 2 + 1;
            mfrom += i < me ? mcounts[i] : 0;
            mtotal += mcounts[i];
        }
        c.reduceScatter(Matrices.of(me, s, mtotal), m, mcounts, matrix, product);
        assertArrayEquals(slice(Matrices.product(0, n, s, mtotal), 4 * mfrom, 4 * mcounts[me]), m,
            "reduceScatter of matrices in rank order");

        s = ++salt;
        recv = filled(7, -1);
        c.reduceScatterBlock(of(me, s, 7 * n), recv, 7, MPI.INT, MPI.SUM);
        assertArrayEquals(sum(s, 7 * me, 7), recv, "reduceScatterBlock");
        s = ++salt;
        buf = of(me, s, 7 * n);
        c.reduceScatterBlock(buf, 7, MPI.INT, MPI.SUM);
        assertArrayEquals(sum(s, 7 * me, 7), slice(buf, 0, 7), "reduceScatterBlock in place");

        s = ++salt;
        IntBuffer send = MPI.newIntBuffer(Math.max(1, total)).put(of(me, s, total));
        IntBuffer into = MPI.newIntBuffer(Math.max(1, counts[me]));
        c.iReduceScatter(send, into, counts, MPI.INT, MPI.SUM).waitFor();
        assertArrayEquals(sum(s, from, counts[me]), slice(array(into), 0, counts[me]), "iReduceScatter");
        s = ++salt;
        IntBuffer block = MPI.newIntBuffer(3 * n).put(of(me, s, 3 * n));
        c.iReduceScatterBlock(block, 3, MPI.INT, MPI.SUM).waitFor();
        assertArrayEquals(sum(s, 3 * me, 3), slice(array(block), 0, 3), "iReduceScatterBlock in place");
    }

    void scan() throws MPIException {
        int s = ++salt;
        int[] recv = filled(5, -1);
        c.scan(of(me, s, 5), recv, 5, MPI.INT, MPI.SUM);
        assertArrayEquals(prefix(s, me + 1, 5), recv, "scan");
        s = ++salt;
        recv = filled(5, -1);
        c.exScan(of(me, s, 5), recv, 5, MPI.INT, MPI.SUM);
        assertArrayEquals(me == 0 ? filled(5, -1) : prefix(s, me, 5), recv, "exScan");
        s = ++salt;
        int[] buf = of(me, s, 5);
        c.scan(buf, 5, MPI.INT, MPI.SUM);
        assertArrayEquals(prefix(s, me + 1, 5), buf, "scan in place");
        s = ++salt;
        buf = of(me, s, 5);
        c.exScan(buf, 5, MPI.INT, MPI.SUM);
        assertArrayEquals(me == 0 ? of(0, s, 5) : prefix(s, me, 5), buf, "exScan in place");

        s = ++salt;
        int[] m = new int[8];
        c.scan(Matrices.of(me, s, 2), m, 2, matrix, product);
        assertArrayEquals(Matrices.product(0, me + 1, s, 2), m, "scan of matrices in rank order");
        s = ++salt;
        m = new int[8];
        c.exScan(Matrices.of(me, s, 2), m, 2, matrix, product);
        assertArrayEquals(me == 0 ? new int[8] : Matrices.product(0, me, s, 2), m, "exScan of matrices in rank order");

        s = ++salt;
        IntBuffer send = MPI.newIntBuffer(4).put(of(me, s, 4));
        IntBuffer into = MPI.newIntBuffer(4);
        c.iScan(send, into, 4, MPI.INT, MPI.SUM).waitFor();
        assertArrayEquals(prefix(s, me + 1, 4), array(into), "iScan");
        s = ++salt;
        IntBuffer inPlace = MPI.newIntBuffer(4).put(of(me, s, 4));
        c.iExScan(inPlace, 4, MPI.INT, MPI.SUM).waitFor();
        assertArrayEquals(me == 0 ? of(0, s, 4) : prefix(s, me, 4), array(inPlace), "iExScan in place");
    }

    /** @return the sums of ranks 0 to {@code ranks - 1}'s data */
    private static int[] prefix(int s, int ranks, int count) {
        return Data.sum(ranks, s, 0, count);
    }

    void local() throws MPIException {
        int[] inout = {1, 2, 3};
        Intracomm.reduceLocal(new int[] {10, 20, 30}, inout, 3, MPI.INT, MPI.SUM);
        assertArrayEquals(new int[] {11, 22, 33}, inout, "reduceLocal");
        int[] a = Matrices.of(0, 1, 1);
        int[] b = Matrices.of(1, 1, 1);
        int[] ab = Matrices.product(a, 0, b, 0);
        Intracomm.reduceLocal(a, b, 1, matrix, product);
        assertArrayEquals(ab, b, "reduceLocal of a matrix: in op inout");
        int count = 20_003;
        int s = ++salt;
        DoubleBuffer in = MPI.newDoubleBuffer(count).put(doubles(0, s, count));
        DoubleBuffer io = MPI.newDoubleBuffer(count).put(doubles(1, s, count));
        Intracomm.reduceLocal(in, io, count, MPI.DOUBLE, MPI.MAX);
        double[] got = new double[count];
        io.clear();
        io.get(got);
        for (int i = 0; i < count; i++) {
            assertEquals(Math.max(Data.value(0, s, i), Data.value(1, s, i)), got[i],
                "reduceLocal MAX of direct buffers at " + i);
        }
        IntBuffer sums = MPI.newIntBuffer(count).put(of(1, s, count));
        Intracomm.reduceLocal(of(0, s, count), sums, count, MPI.INT, MPI.SUM);
        assertArrayEquals(Data.sum(2, s, 0, count), array(sums), "reduceLocal of an array into a direct buffer");
    }
}
