package io.polylink.mpi.programs.coll;

import static io.polylink.mpi.programs.coll.Data.filled;
import static io.polylink.mpi.programs.coll.Data.of;
import static io.polylink.mpi.programs.coll.Data.slice;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Collectives the arguments name, each {@code KIND:COUNT:ROOT} (kinds {@code bcast},
 * {@code reduce}, {@code allreduce}, {@code gather}, {@code scatter}, {@code allgather},
 * {@code alltoall}, {@code scan}), run on {@code COMM_WORLD} in order and each checked against the
 * sequential computation: what a randomized test generates.
 */
public final class Cases {

    private Cases() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm c = MPI.COMM_WORLD;
        int n = c.getSize();
        int me = c.getRank();
        int s = 0;
        for (String arg : args) {
            String[] f = arg.split(":");
            int count = Integer.parseInt(f[1]);
            int root = Integer.parseInt(f[2]) % n;
            s++;
            String what = arg + " on " + n + " ranks";
            switch (f[0]) {
                case "bcast" -> {
                    int[] buf = me == root ? of(root, s, count) : filled(count, -1);
                    c.bcast(buf, count, MPI.INT, root);
                    assertArrayEquals(of(root, s, count), buf, what);
                }
                case "reduce", "allreduce" -> {
                    int[] recv = filled(count, -1);
                    if (f[0].equals("reduce")) {
                        c.reduce(of(me, s, count), recv, count, MPI.INT, MPI.SUM, root);
                    } else {
                        c.allReduce(of(me, s, count), recv, count, MPI.INT, MPI.SUM);
                    }
                    if (me == root || f[0].equals("allreduce")) {
                        assertArrayEquals(Data.sum(n, s, 0, count), recv, what);
                    }
                }
                case "gather" -> {
                    int[] recv = filled(n * count, -1);
                    c.gather(of(me, s, count), count, MPI.INT, recv, count, MPI.INT, root);
                    if (me == root) {
                        for (int i = 0; i < n; i++) {
                            assertArrayEquals(of(i, s, count), slice(recv, i * count, count), what + ", rank " + i);
                        }
                    }
                }
                case "scatter" -> {
                    int[] send = filled(n * count, -1);
                    for (int i = 0; i < n; i++) {
                        Data.put(send, i * count, of(i, s, count));
                    }
                    int[] recv = filled(count, -1);
                    c.scatter(send, count, MPI.INT, recv, count, MPI.INT, root);
                    assertArrayEquals(of(me, s, count), recv, what);
                }
                case "allgather" -> {
                    int[] recv = filled(n * count, -1);
                    c.allGather(of(me, s, count), count, MPI.INT, recv, count, MPI.INT);
                    for (int i = 0; i < n; i++) {
                        assertArrayEquals(of(i, s, count), slice(recv, i * count, count), what + ", rank " + i);
                    }
                }
                case "alltoall" -> {
                    int[] recv = filled(n * count, -1);
                    c.allToAll(of(me, s, n * count), count, MPI.INT, recv, count, MPI.INT);
                    for (int i = 0; i < n; i++) {
                        assertArrayEquals(of(i, s, me * count, count), slice(recv, i * count, count), what);
                    }
                }
                case "scan" -> {
                    int[] recv = filled(count, -1);
                    c.scan(of(me, s, count), recv, count, MPI.INT, MPI.SUM);
                    assertArrayEquals(Data.sum(me + 1, s, 0, count), recv, what);
                }
                default -> throw new IllegalArgumentException("no collective " + f[0]);
            }
        }
        MPI.Finalize();
    }
}
