package io.polylink.mpi.programs.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Every collective, in every form, on {@code COMM_WORLD} (algorithms chosen per call) and on five
 * duplicates whose info names, for each collective, its first, second, third, fourth and fifth algorithm
 * (or its last, if it has fewer; the second with 1 KiB segments, the third without the hierarchy
 * over hosts); then every predefined operation on every type, and wrong calls. Each rank checks
 * each result against the same computation done sequentially.
 *
 * <p>Arguments: {@code hosts=LETTERS} to check that the job's ranks run on the hosts the letters
 * name, one per rank ({@code aabbb}: ranks 0 and 1 on one host, 2 to 4 on another), reaching each
 * other by shm within a host and tcp between, and that collectives took their hierarchical
 * algorithms.
 */
public final class Matrix {

    /** The algorithms of each collective, as {@code polylink.coll.<collective>} names them. */
    private static final List<List<String>> ALGORITHMS = List.of(
        List.of("bcast", "binomial", "pipeline", "segmented-binomial", "linear", "shared-memory"),
        List.of("gather", "linear", "binomial", "hierarchical"),
        List.of("scatter", "linear", "binomial", "hierarchical"),
        List.of("allgather", "ring", "recursive-doubling", "hierarchical"),
        List.of("alltoall", "bruck", "pairwise", "linear", "hierarchical"),
        List.of("reduce", "binomial", "pipeline", "segmented-binomial"),
        List.of("allreduce", "recursive-doubling", "rabenseifner", "ring", "shared-memory"),
        List.of("reducescatter", "ring", "reduce-scatterv"));

    private Matrix() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String hosts = List.of(args).stream().filter(a -> a.startsWith("hosts=")).map(a -> a.substring(6))
            .findFirst().orElse(null);
        Intracomm world = MPI.COMM_WORLD;
        int salt = 0;
        new Movement(world, salt += 1_000).run();
        new Reductions(world, salt += 1_000).run();
        if (hosts != null) {
            String[] stacks = world.getInfo().get("polylink.stacks").split(",");
            int me = world.getRank();
            for (int r = 0; r < stacks.length; r++) {
                String expected = r == me ? "local" : hosts.charAt(r) == hosts.charAt(me) ? "shm" : "tcp";
                assertTrue(stacks[r].equals(expected), "rank " + r + " is reached by " + stacks[r] + ", not " + expected
                    + ": the ranks' hosts are " + hosts);
            }
            String chosen = lastOfEach(world, salt += 1_000);
            String reduce = "reduce: hierarchical " + (crowded(hosts) ? "segmented-binomial" : "pipeline");
            for (String c : List.of("barrier: hierarchical", "bcast: hierarchical", reduce,
                    "allreduce: hierarchical", "gather: hierarchical", "scatter: hierarchical", "allgather: hierarchical",
                    "alltoall: hierarchical")) {
                assertTrue(chosen.contains(c), "over several hosts, " + c + "; the choices were " + chosen);
            }
        }
        for (int v = 0; v < 5; v++) {
            Info info = new Info();
            for (List<String> a : ALGORITHMS) {
                info.set("polylink.coll." + a.get(0), a.get(Math.min(v + 1, a.size() - 1)));
            }
            if (v == 1) {
                info.set("polylink.coll.segment", "1024");
            }
            if (v == 2) {
                info.set("polylink.coll.hierarchy", "false");
            }
            Intracomm c = world.dupWithInfo(info);
            new Movement(c, salt += 1_000).run();
            new Reductions(c, salt += 1_000).run();
            String chosen = c.getInfo().get("polylink.collectives");
            String bcast = ALGORITHMS.get(0).get(Math.min(v + 1, ALGORITHMS.get(0).size() - 1));
            assertTrue(chosen.contains(bcast), "the info named " + bcast + " for MPI_Bcast; the choices were " + chosen);
            c.free();
        }
        retuned(world, hosts, salt += 1_000);
        largeBroadcast(world, hosts, salt += 1_000);
        new OpTable(world).run();
        Misuse.run(world);
        MPI.Finalize();
    }

    /**
     * A communicator whose info names other algorithms between two calls of the same size takes
     * them at the next call: a call like the last one does not keep the last one's choice.
     *
     * @param hosts as {@link #main}'s argument: {@code null} for one host, where small calls meet in
     *     shared memory
     */
    private static void retuned(Intracomm world, String hosts, int salt) throws MPIException {
        Intracomm c = world.dup();
        int n = c.getSize();
        int count = 8;
        for (int turn = 0; turn < 2; turn++) {
            if (turn == 1) {
                Info info = new Info();
                info.set("polylink.coll.bcast", "pipeline");
                info.set("polylink.coll.allreduce", "ring");
                c.setInfo(info);
            }
            int[] data = c.getRank() == 0 ? Data.of(0, salt + turn, count) : Data.filled(count, -1);
            c.bcast(data, count, MPI.INT, 0);
            assertArrayEquals(Data.of(0, salt + turn, count), data, "bcast in turn " + turn);
            int[] sum = Data.filled(count, -1);
            c.allReduce(Data.of(c.getRank(), salt + turn, count), sum, count, MPI.INT, MPI.SUM);
            assertArrayEquals(Data.sum(n, salt + turn, 0, count), sum, "allReduce in turn " + turn);
            String chosen = c.getInfo().get("polylink.collectives");
            String bcast = turn == 1 ? "pipeline" : hosts == null && n > 1 ? "shared-memory" : "binomial";
            assertTrue(chosen.matches("(?s).*bcast: (hierarchical )?" + bcast + "\\b.*"),
                "turn " + turn + " should broadcast by " + bcast + "; the choices were " + chosen);
            if (n > 1) {
                String allreduce = turn == 1 ? "ring" : hosts == null ? "shared-memory" : "recursive-doubling";
                assertTrue(chosen.matches("(?s).*allreduce: (hierarchical )?" + allreduce + "\\b.*"),
                    "turn " + turn + " should allreduce by " + allreduce + "; the choices were " + chosen);
            }
        }
        c.free();
    }

    /**
     * A broadcast too large to go whole is read from memory the ranks share where they all run on
     * one host; over several, it goes down a chain, unless a host runs more of the job's ranks than
     * it has cores: then down a binomial tree, which keeps fewer of them busy at once.
     *
     * @param hosts one letter per rank naming its host, or {@code null} for one host
     */
    private static void largeBroadcast(Intracomm world, String hosts, int salt) throws MPIException {
        Intracomm c = world.dup();
        int n = c.getSize();
        int count = 32 * 1024;
        int[] data = c.getRank() == 0 ? Data.of(0, salt, count) : Data.filled(count, -1);
        c.bcast(data, count, MPI.INT, 0);
        assertArrayEquals(Data.of(0, salt, count), data, "bcast of 128 KiB");
        String names = hosts != null ? hosts : "a".repeat(n);
        String expected = n > 1 && names.chars().distinct().count() == 1 ? "shared-memory" : n <= 2 ? "binomial"
            : crowded(names) ? "segmented-binomial" : "pipeline";
        String chosen = c.getInfo().get("polylink.collectives");
        assertTrue(chosen.matches("(?s).*bcast: (hierarchical )?" + expected + "\\b.*"), n + " ranks on hosts " + names
            + " with " + Runtime.getRuntime().availableProcessors() + " cores each should broadcast 128 KiB by "
            + expected + "; the choices were " + chosen);
        c.free();
    }

    /** @return whether a host of {@code hosts} (one letter per rank) runs more ranks than it has cores */
    private static boolean crowded(String hosts) {
        int cores = Runtime.getRuntime().availableProcessors();
        return hosts.chars().anyMatch(h -> hosts.chars().filter(x -> x == h).count() > cores);
    }

    /**
     * Calls gather, scatter, allgather and alltoall with blocks of one size each, and a reduction
     * of 80 KB, the last calls of these collectives before their choices are read (the tests before
     * end with their v forms and small reductions), each checked.
     *
     * @return {@code polylink.collectives} after them
     */
    private static String lastOfEach(Intracomm c, int salt) throws MPIException {
        int n = c.getSize();
        int me = c.getRank();
        int root = n - 1;
        int[] all = new int[2 * n];
        for (int i = 0; i < n; i++) {
            Data.put(all, 2 * i, Data.of(i, salt, 2));
        }
        int[] recv = Data.filled(2 * n, -1);
        c.gather(Data.of(me, salt, 2), 2, MPI.INT, recv, 2, MPI.INT, root);
        if (me == root) {
            assertArrayEquals(all, recv, "gather");
        }
        int[] mine = Data.filled(2, -1);
        c.scatter(all, 2, MPI.INT, mine, 2, MPI.INT, root);
        assertArrayEquals(Data.of(me, salt, 2), mine, "scatter");
        recv = Data.filled(2 * n, -1);
        c.allGather(Data.of(me, salt, 2), 2, MPI.INT, recv, 2, MPI.INT);
        assertArrayEquals(all, recv, "allGather");
        recv = Data.filled(2 * n, -1);
        c.allToAll(Data.of(me, salt, 2 * n), 2, MPI.INT, recv, 2, MPI.INT);
        for (int i = 0; i < n; i++) {
            assertArrayEquals(Data.of(i, salt, 2 * me, 2), Data.slice(recv, 2 * i, 2), "allToAll from rank " + i);
        }
        int count = 20_000;
        int[] sum = Data.filled(count, -1);
        c.reduce(Data.of(me, salt, count), sum, count, MPI.INT, MPI.SUM, root);
        if (me == root) {
            assertArrayEquals(Data.sum(n, salt, 0, count), sum, "reduce of " + count);
        }
        return c.getInfo().get("polylink.collectives");
    }
}
