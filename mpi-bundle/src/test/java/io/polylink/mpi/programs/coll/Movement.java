package io.polylink.mpi.programs.coll;

import static io.polylink.mpi.programs.coll.Data.filled;
import static io.polylink.mpi.programs.coll.Data.of;
import static io.polylink.mpi.programs.coll.Data.put;
import static io.polylink.mpi.programs.coll.Data.slice;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.IntBuffer;
import mpi.CartComm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * The collectives that move data, each in its blocking, in-place and non-blocking forms, with
 * roots other than 0, zero counts, derived datatypes and different send and receive types.
 */
final class Movement {

    private final Intracomm c;
    private final int n;
    private final int me;
    private int salt;

    Movement(Intracomm c, int firstSalt) throws MPIException {
        this.c = c;
        this.n = c.getSize();
        this.me = c.getRank();
        this.salt = firstSalt;
    }

    int[] roots() {
        return n == 1 ? new int[] {0} : new int[] {0, n - 1};
    }

    void run() throws MPIException {
        c.barrier();
        c.iBarrier().waitFor();
        bcast();
        gather();
        gatherv();
        scatter();
        scatterv();
        allGather();
        allGatherv();
        allToAll();
        allToAllv();
        allToAllw();
        neighbours();
    }

    void bcast() throws MPIException {
        for (int root : roots()) {
            for (int count : new int[] {0, 1, 7, 40_000}) {
                int s = ++salt;
                int[] buf = me == root ? of(root, s, count) : filled(count, -1);
                c.bcast(buf, count, MPI.INT, root);
                assertArrayEquals(of(root, s, count), buf, "bcast of " + count + " from " + root);
            }
            // A vector type: 4 blocks of 2 ints, 3 apart; the gaps keep what they had.
            Datatype vector = Datatype.createVector(4, 2, 3, MPI.INT);
            vector.commit();
            int s = ++salt;
            int[] buf = me == root ? of(root, s, 22) : filled(22, -1);
            c.bcast(buf, 2, vector, root);
            for (int i = 0; i < 22; i++) {
                boolean data = i % 11 < 11 && (i % 11) % 3 != 2;
                assertEquals(data || me == root ? Data.value(root, s, i) : -1, buf[i], "vector bcast at " + i);
            }
            vector.free();
            s = ++salt;
            IntBuffer direct = MPI.newIntBuffer(10_000);
            direct.put(me == root ? of(root, s, 10_000) : filled(10_000, -1)).clear();
            Request r = c.iBcast(direct, 10_000, MPI.INT, root);
            r.waitFor();
            int[] got = new int[10_000];
            direct.get(got);
            assertArrayEquals(of(root, s, 10_000), got, "iBcast");
            // Larger than the eager limit, in segments down a tree: from buffers the ranks share, each
            // segment is read where the sending rank's buffer holds it.
            s = ++salt;
            int large = 300_001;
            IntBuffer shared = MPI.newIntBuffer(large);
            shared.put(me == root ? of(root, s, large) : filled(large, -1)).clear();
            c.bcast(shared, large, MPI.INT, root);
            int[] all = new int[large];
            shared.get(all);
            assertArrayEquals(of(root, s, large), all, "bcast of a large direct buffer");
            // Within the eager limit, from the same shared buffer: by reference too, down a binomial
            // tree, or among a few ranks of one host from the root to each (linear).
            s = ++salt;
            int part = 12_000;
            shared.clear().put(me == root ? of(root, s, part) : filled(part, -1)).clear();
            c.bcast(shared, part, MPI.INT, root);
            int[] some = new int[part];
            shared.get(some).clear();
            assertArrayEquals(of(root, s, part), some, "bcast of 48 KB of a shared buffer");
        }
    }

    void gather() throws MPIException {
        for (int root : roots()) {
            for (int count : new int[] {0, 3}) {
                int s = ++salt;
                int[] recv = me == root ? filled(n * count, -1) : null;
                c.gather(of(me, s, count), count, MPI.INT, recv, count, MPI.INT, root);
                checkBlocks(recv, root, s, count, "gather");

                s = ++salt;
                if (me == root) {
                    int[] buf = filled(n * count, -1);
                    put(buf, root * count, of(root, s, count));
                    c.gather(buf, count, MPI.INT, root);
                    checkBlocks(buf, root, s, count, "gather in place");
                } else {
                    c.gather(of(me, s, count), count, MPI.INT, root);
                }

                // Sent as ints, received as pairs of ints.
                s = ++salt;
                Datatype pair = Datatype.createContiguous(2, MPI.INT);
                pair.commit();
                recv = me == root ? filled(n * count * 2, -1) : null;
                c.gather(of(me, s, 2 * count), 2 * count, MPI.INT, recv, count, pair, root);
                checkBlocks(recv, root, s, 2 * count, "gather of ints into pairs");
                pair.free();
            }
            int s = ++salt;
            IntBuffer send = MPI.newIntBuffer(4).put(of(me, s, 4));
            IntBuffer recv = MPI.newIntBuffer(4 * n);
            c.iGather(send, 4, MPI.INT, recv, 4, MPI.INT, root).waitFor();
            if (me == root) {
                checkBlocks(array(recv), root, s, 4, "iGather");
            }
        }
    }

    private void checkBlocks(int[] recv, int root, int s, int count, String what) {
        if (me != root) {
            return;
        }
        for (int i = 0; i < n; i++) {
            assertArrayEquals(of(i, s, count), slice(recv, i * count, count), what + ": rank " + i + "'s block");
        }
    }

    private static int[] array(IntBuffer b) {
        int[] out = new int[b.capacity()];
        b.clear();
        b.get(out);
        return out;
    }

    /** Counts 0, 1, 2, ... and blocks in the reverse order of the ranks, one element apart. */
    private record Layout(int[] counts, int[] displs, int size) {
        static Layout of(int n, int shift) {
            int[] counts = new int[n];
            int[] displs = new int[n];
            int at = 0;
            for (int i = n - 1; i >= 0; i--) {
                counts[i] = (i + shift) % 3;
                displs[i] = at + 1;
                at = displs[i] + counts[i];
            }
            return new Layout(counts, displs, at + 1);
        }
    }

    void gatherv() throws MPIException {
        Layout l = Layout.of(n, 1);
        for (int root : roots()) {
            int s = ++salt;
            int[] recv = me == root ? filled(l.size(), -1) : null;
            c.gatherv(of(me, s, l.counts()[me]), l.counts()[me], MPI.INT, recv, l.counts(), l.displs(), MPI.INT, root);
            checkParts(recv, root, s, l, "gatherv");

            s = ++salt;
            if (me == root) {
                int[] buf = filled(l.size(), -1);
                put(buf, l.displs()[root], of(root, s, l.counts()[root]));
                c.gatherv(buf, l.counts(), l.displs(), MPI.INT, root);
                checkParts(buf, root, s, l, "gatherv in place");
            } else {
                c.gatherv(of(me, s, l.counts()[me]), l.counts()[me], MPI.INT, root);
            }

            s = ++salt;
            IntBuffer send = MPI.newIntBuffer(Math.max(1, l.counts()[me])).put(of(me, s, l.counts()[me]));
            IntBuffer buf = MPI.newIntBuffer(l.size()).put(filled(l.size(), -1));
            c.iGatherv(send, l.counts()[me], MPI.INT, buf, l.counts(), l.displs(), MPI.INT, root).waitFor();
            checkParts(array(buf), root, s, l, "iGatherv");
        }
    }

    private void checkParts(int[] buf, int root, int s, Layout l, String what) {
        if (me != root) {
            return;
        }
        int[] expected = filled(l.size(), -1);
        for (int i = 0; i < n; i++) {
            put(expected, l.displs()[i], of(i, s, l.counts()[i]));
        }
        assertArrayEquals(expected, buf, what);
    }

    void scatter() throws MPIException {
        for (int root : roots()) {
            for (int count : new int[] {0, 3}) {
                int s = ++salt;
                int[] send = me == root ? all(s, count) : null;
                int[] recv = filled(count, -1);
                c.scatter(send, count, MPI.INT, recv, count, MPI.INT, root);
                assertArrayEquals(of(me, s, count), recv, "scatter");

                s = ++salt;
                if (me == root) {
                    int[] buf = all(s, count);
                    c.scatter(buf, count, MPI.INT, root);
                    assertArrayEquals(all(s, count), buf, "scatter in place leaves the root's buffer");
                } else {
                    recv = filled(count, -1);
                    c.scatter(recv, count, MPI.INT, root);
                    assertArrayEquals(of(me, s, count), recv, "scatter in place");
                }

                // Sent as pairs of ints, received as ints.
                s = ++salt;
                Datatype pair = Datatype.createContiguous(2, MPI.INT);
                pair.commit();
                recv = filled(2 * count, -1);
                c.scatter(me == root ? all(s, 2 * count) : null, count, pair, recv, 2 * count, MPI.INT, root);
                assertArrayEquals(of(me, s, 2 * count), recv, "scatter of pairs into ints");
                pair.free();
            }
            int s = ++salt;
            IntBuffer send = MPI.newIntBuffer(4 * n).put(all(s, 4));
            IntBuffer recv = MPI.newIntBuffer(4);
            c.iScatter(send, 4, MPI.INT, recv, 4, MPI.INT, root).waitFor();
            assertArrayEquals(of(me, s, 4), array(recv), "iScatter");
        }
    }

    /** @return every rank's block of {@code count} one after the other, block {@code i} being rank {@code i}'s data */
    private int[] all(int s, int count) {
        int[] out = new int[n * count];
        for (int i = 0; i < n; i++) {
            put(out, i * count, of(i, s, count));
        }
        return out;
    }

    void scatterv() throws MPIException {
        Layout l = Layout.of(n, 2);
        for (int root : roots()) {
            int s = ++salt;
            int[] send = null;
            if (me == root) {
                send = filled(l.size(), -1);
                for (int i = 0; i < n; i++) {
                    put(send, l.displs()[i], of(i, s, l.counts()[i]));
                }
            }
            int[] recv = filled(l.counts()[me], -1);
            c.scatterv(send, l.counts(), l.displs(), MPI.INT, recv, l.counts()[me], MPI.INT, root);
            assertArrayEquals(of(me, s, l.counts()[me]), recv, "scatterv");
            if (me == root) {
                c.scatterv(send, l.counts(), l.displs(), MPI.INT, root);
            } else {
                recv = filled(l.counts()[me], -1);
                c.scatterv(recv, l.counts()[me], MPI.INT, root);
                assertArrayEquals(of(me, s, l.counts()[me]), recv, "scatterv in place");
            }
            IntBuffer sendb = MPI.newIntBuffer(l.size());
            if (send != null) {
                sendb.put(send);
            }
            IntBuffer recvb = MPI.newIntBuffer(Math.max(1, l.counts()[me]));
            c.iScatterv(sendb, l.counts(), l.displs(), MPI.INT, recvb, l.counts()[me], MPI.INT, root).waitFor();
            assertArrayEquals(of(me, s, l.counts()[me]), slice(array(recvb), 0, l.counts()[me]), "iScatterv");
        }
    }

    void allGather() throws MPIException {
        for (int count : new int[] {0, 2, 5_000}) {
            int s = ++salt;
            int[] recv = filled(n * count, -1);
            c.allGather(of(me, s, count), count, MPI.INT, recv, count, MPI.INT);
            assertArrayEquals(all(s, count), recv, "allGather of " + count);

            s = ++salt;
            int[] buf = filled(n * count, -1);
            put(buf, me * count, of(me, s, count));
            c.allGather(buf, count, MPI.INT);
            assertArrayEquals(all(s, count), buf, "allGather in place of " + count);

            // Sent as ints, received as pairs of ints.
            s = ++salt;
            Datatype pair = Datatype.createContiguous(2, MPI.INT);
            pair.commit();
            recv = filled(2 * n * count, -1);
            c.allGather(of(me, s, 2 * count), 2 * count, MPI.INT, recv, count, pair);
            assertArrayEquals(all(s, 2 * count), recv, "allGather of ints into pairs, " + count);
            pair.free();
        }
        int s = ++salt;
        IntBuffer send = MPI.newIntBuffer(3).put(of(me, s, 3));
        IntBuffer recv = MPI.newIntBuffer(3 * n);
        c.iAllGather(send, 3, MPI.INT, recv, 3, MPI.INT).waitFor();
        assertArrayEquals(all(s, 3), array(recv), "iAllGather");
        s = ++salt;
        IntBuffer buf = MPI.newIntBuffer(3 * n);
        buf.put(me * 3, of(me, s, 3));
        c.iAllGather(buf, 3, MPI.INT).waitFor();
        assertArrayEquals(all(s, 3), array(buf), "iAllGather in place");
    }

    void allGatherv() throws MPIException {
        Layout l = Layout.of(n, 0);
        int s = ++salt;
        int[] recv = filled(l.size(), -1);
        c.allGatherv(of(me, s, l.counts()[me]), l.counts()[me], MPI.INT, recv, l.counts(), l.displs(), MPI.INT);
        int[] expected = filled(l.size(), -1);
        for (int i = 0; i < n; i++) {
            put(expected, l.displs()[i], of(i, s, l.counts()[i]));
        }
        assertArrayEquals(expected, recv, "allGatherv");
        int[] buf = filled(l.size(), -1);
        put(buf, l.displs()[me], of(me, s, l.counts()[me]));
        c.allGatherv(buf, l.counts(), l.displs(), MPI.INT);
        assertArrayEquals(expected, buf, "allGatherv in place");
        IntBuffer direct = MPI.newIntBuffer(l.size()).put(filled(l.size(), -1));
        direct.put(l.displs()[me], of(me, s, l.counts()[me]));
        c.iAllGatherv(direct, l.counts(), l.displs(), MPI.INT).waitFor();
        assertArrayEquals(expected, array(direct), "iAllGatherv in place");
    }

    void allToAll() throws MPIException {
        for (int count : new int[] {0, 1, 3, 100}) {
            int s = ++salt;
            int[] recv = filled(n * count, -1);
            c.allToAll(of(me, s, n * count), count, MPI.INT, recv, count, MPI.INT);
            for (int i = 0; i < n; i++) {
                assertArrayEquals(of(i, s, me * count, count), slice(recv, i * count, count),
                    "allToAll of " + count + ": the block from rank " + i);
            }

            // Sent as pairs of ints, received as ints.
            s = ++salt;
            Datatype pair = Datatype.createContiguous(2, MPI.INT);
            pair.commit();
            recv = filled(2 * n * count, -1);
            c.allToAll(of(me, s, 2 * n * count), count, pair, recv, 2 * count, MPI.INT);
            for (int i = 0; i < n; i++) {
                assertArrayEquals(of(i, s, 2 * me * count, 2 * count), slice(recv, 2 * i * count, 2 * count),
                    "allToAll of pairs into ints, " + count + ": the block from rank " + i);
            }
            pair.free();
        }
        int s = ++salt;
        IntBuffer send = MPI.newIntBuffer(2 * n).put(of(me, s, 2 * n));
        IntBuffer recv = MPI.newIntBuffer(2 * n);
        c.iAllToAll(send, 2, MPI.INT, recv, 2, MPI.INT).waitFor();
        int[] got = array(recv);
        for (int i = 0; i < n; i++) {
            assertArrayEquals(of(i, s, me * 2, 2), slice(got, i * 2, 2), "iAllToAll: the block from rank " + i);
        }
    }

    /** Rank {@code i} sends rank {@code j} {@code (i + j) % 3} elements, from element {@code 10 j} of its data. */
    void allToAllv() throws MPIException {
        int s = ++salt;
        int[] sendCounts = new int[n];
        int[] sdispls = new int[n];
        int[] recvCounts = new int[n];
        int[] rdispls = new int[n];
        for (int j = 0; j < n; j++) {
            sendCounts[j] = (me + j) % 3;
            sdispls[j] = 10 * j;
            recvCounts[j] = (j + me) % 3;
            rdispls[j] = 4 * (n - 1 - j);
        }
        int[] recv = filled(4 * n, -1);
        c.allToAllv(of(me, s, 10 * n), sendCounts, sdispls, MPI.INT, recv, recvCounts, rdispls, MPI.INT);
        int[] expected = filled(4 * n, -1);
        for (int i = 0; i < n; i++) {
            put(expected, rdispls[i], of(i, s, 10 * me, recvCounts[i]));
        }
        assertArrayEquals(expected, recv, "allToAllv");
        IntBuffer sendb = MPI.newIntBuffer(10 * n).put(of(me, s, 10 * n));
        IntBuffer recvb = MPI.newIntBuffer(4 * n).put(filled(4 * n, -1));
        c.iAllToAllv(sendb, sendCounts, sdispls, MPI.INT, recvb, recvCounts, rdispls, MPI.INT).waitFor();
        assertArrayEquals(expected, array(recvb), "iAllToAllv");
    }

    /** Two ints to each rank: as two INTs to even ranks and one pair to odd ones; received the other way round. */
    void allToAllw() throws MPIException {
        int s = ++salt;
        Datatype pair = Datatype.createContiguous(2, MPI.INT);
        pair.commit();
        int[] sendCounts = new int[n];
        int[] recvCounts = new int[n];
        int[] sdispls = new int[n];
        int[] rdispls = new int[n];
        Datatype[] sendTypes = new Datatype[n];
        Datatype[] recvTypes = new Datatype[n];
        for (int j = 0; j < n; j++) {
            sendTypes[j] = j % 2 == 0 ? MPI.INT : pair;
            sendCounts[j] = j % 2 == 0 ? 2 : 1;
            recvTypes[j] = j % 2 == 0 ? pair : MPI.INT;
            recvCounts[j] = j % 2 == 0 ? 1 : 2;
            sdispls[j] = 8 * j;
            rdispls[j] = 8 * (n - 1 - j);
        }
        int[] recv = filled(2 * n, -1);
        c.allToAllw(of(me, s, 2 * n), sendCounts, sdispls, sendTypes, recv, recvCounts, rdispls, recvTypes);
        for (int i = 0; i < n; i++) {
            assertArrayEquals(of(i, s, 2 * me, 2), slice(recv, 2 * (n - 1 - i), 2), "allToAllw from rank " + i);
        }
        pair.free();
    }

    /** Neighbourhood collectives on a ring of all ranks and, with four, a 2 x 2 grid that does not wrap. */
    void neighbours() throws MPIException {
        CartComm ring = c.createCart(new int[] {n}, new boolean[] {true}, false);
        int below = Math.floorMod(me - 1, n);
        int above = (me + 1) % n;
        int s = ++salt;
        int[] recv = filled(4, -1);
        ring.neighborAllGather(of(me, s, 2), 2, MPI.INT, recv, 2, MPI.INT);
        assertArrayEquals(of(below, s, 2), slice(recv, 0, 2), "neighborAllGather: from the rank below");
        assertArrayEquals(of(above, s, 2), slice(recv, 2, 2), "neighborAllGather: from the rank above");

        s = ++salt;
        recv = filled(4, -1);
        ring.neighborAllToAll(of(me, s, 4), 2, MPI.INT, recv, 2, MPI.INT);
        assertArrayEquals(of(below, s, 2, 2), slice(recv, 0, 2), "neighborAllToAll: the block the rank below sent up");
        assertArrayEquals(of(above, s, 0, 2), slice(recv, 2, 2), "neighborAllToAll: the block the rank above sent down");

        s = ++salt;
        recv = filled(5, -1);
        ring.neighborAllGatherv(of(me, s, 2), 2, MPI.INT, recv, new int[] {2, 2}, new int[] {3, 0}, MPI.INT);
        assertArrayEquals(of(below, s, 2), slice(recv, 3, 2), "neighborAllGatherv: from the rank below");
        assertArrayEquals(of(above, s, 2), slice(recv, 0, 2), "neighborAllGatherv: from the rank above");

        s = ++salt;
        recv = filled(3, -1);
        ring.neighborAllToAllv(of(me, s, 4), new int[] {1, 2}, new int[] {0, 2}, MPI.INT, recv, new int[] {2, 1},
            new int[] {1, 0}, MPI.INT);
        assertArrayEquals(of(below, s, 2, 2), slice(recv, 1, 2), "neighborAllToAllv: from the rank below");
        assertArrayEquals(of(above, s, 0, 1), slice(recv, 0, 1), "neighborAllToAllv: from the rank above");

        s = ++salt;
        IntBuffer sendb = MPI.newIntBuffer(4).put(of(me, s, 4));
        IntBuffer recvb = MPI.newIntBuffer(4);
        ring.iNeighborAllToAll(sendb, 2, MPI.INT, recvb, 2, MPI.INT).waitFor();
        assertArrayEquals(of(below, s, 2, 2), slice(array(recvb), 0, 2), "iNeighborAllToAll");
        ring.free();

        if (n == 4) {
            CartComm grid = c.createCart(new int[] {2, 2}, new boolean[] {false, false}, false);
            int[] coords = grid.getCoords(grid.getRank());
            s = ++salt;
            recv = filled(8, -1);
            grid.neighborAllGather(of(grid.getRank(), s, 2), 2, MPI.INT, recv, 2, MPI.INT);
            for (int d = 0; d < 2; d++) {
                int[] shift = {grid.shift(d, 1).getRankSource(), grid.shift(d, 1).getRankDest()};
                for (int side = 0; side < 2; side++) {
                    int[] block = slice(recv, (2 * d + side) * 2, 2);
                    assertArrayEquals(shift[side] == MPI.PROC_NULL ? filled(2, -1) : of(shift[side], s, 2), block,
                        "neighborAllGather on the grid at " + coords[0] + "," + coords[1] + ", dimension " + d
                            + (side == 0 ? " below" : " above"));
                }
            }
            grid.free();
        }
    }
}
