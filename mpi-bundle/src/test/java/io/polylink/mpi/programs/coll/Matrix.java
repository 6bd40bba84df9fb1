package io.polylink.mpi.programs.coll;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Every collective, in every form, on {@code COMM_WORLD} (algorithms chosen per call) and on three
 * duplicates whose info names, for each collective, its first, second and third algorithm (the
 * second with 1 KiB broadcast segments, the third without the hierarchy over hosts); then every
 * predefined operation on every type, and wrong calls. Each rank checks each result against the
 * same computation done sequentially.
 *
 * <p>Arguments: {@code hierarchical} to check that the job's even and odd ranks run on two hosts,
 * reaching each other by shm within a host and tcp between, and that collectives took their
 * hierarchical algorithms.
 */
public final class Matrix {

    /** The algorithms of each collective, as {@code polylink.coll.<collective>} names them. */
    private static final List<List<String>> ALGORITHMS = List.of(
        List.of("bcast", "binomial", "pipeline", "segmented-binomial"),
        List.of("gather", "linear", "binomial"),
        List.of("scatter", "linear", "binomial"),
        List.of("allgather", "ring", "recursive-doubling"),
        List.of("alltoall", "bruck", "pairwise", "linear"),
        List.of("allreduce", "recursive-doubling", "rabenseifner", "ring"),
        List.of("reducescatter", "ring", "reduce-scatterv"));

    private Matrix() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        boolean hierarchical = List.of(args).contains("hierarchical");
        Intracomm world = MPI.COMM_WORLD;
        int salt = 0;
        new Movement(world, salt += 1_000).run();
        new Reductions(world, salt += 1_000).run();
        if (hierarchical) {
            String[] stacks = world.getInfo().get("polylink.stacks").split(",");
            int me = world.getRank();
            for (int r = 0; r < stacks.length; r++) {
                String expected = r == me ? "local" : r % 2 == me % 2 ? "shm" : "tcp";
                assertTrue(stacks[r].equals(expected), "rank " + r + " is reached by " + stacks[r] + ", not " + expected
                    + ": ranks of one parity share a host");
            }
            String chosen = world.getInfo().get("polylink.collectives");
            for (String c : List.of("barrier: hierarchical", "bcast: hierarchical", "reduce: hierarchical",
                    "allreduce: hierarchical")) {
                assertTrue(chosen.contains(c), "over several hosts, " + c + "; the choices were " + chosen);
            }
        }
        for (int v = 0; v < 3; v++) {
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
            String bcast = ALGORITHMS.get(0).get(v + 1);
            assertTrue(chosen.contains(bcast), "the info named " + bcast + " for MPI_Bcast; the choices were " + chosen);
            c.free();
        }
        new OpTable(world).run();
        Misuse.run(world);
        MPI.Finalize();
    }
}
