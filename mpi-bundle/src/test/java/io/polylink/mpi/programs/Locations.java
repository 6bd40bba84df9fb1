package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * A communicator's {@code polylink.locations}: ranks 0 and 1 on hosts of site {@code lab}, rank 2
 * on a host of no site, rank 3 on rank 0's host; each rank sees the others from where it runs.
 */
public final class Locations {

    private Locations() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        String[] expected = {
            "self,same-site,other-site,same-host",
            "same-site,self,other-site,same-site",
            "other-site,other-site,self,other-site",
            "same-host,same-site,other-site,self"};
        assertEquals(expected[world.getRank()], world.getInfo().get("polylink.locations"));
        Intracomm odd = world.split(world.getRank() % 2, 0);
        String[] inOdd = {"self,other-site", "self,same-site", "other-site,self", "same-site,self"};
        assertEquals(inOdd[world.getRank()], odd.getInfo().get("polylink.locations"), "in rank order of the split");
        odd.free();
        MPI.Finalize();
    }
}
