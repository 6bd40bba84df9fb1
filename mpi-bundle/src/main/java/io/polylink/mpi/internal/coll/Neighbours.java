package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Plan;
import io.polylink.mpi.internal.datatype.Memory;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.request.Operation;

/**
 * The neighbourhood collectives of a Cartesian communicator: {@code MPI_Neighbor_allgather},
 * {@code MPI_Neighbor_allgatherv}, {@code MPI_Neighbor_alltoall} and
 * {@code MPI_Neighbor_alltoallv}. A rank's neighbours are, for each dimension {@code d} in order,
 * the rank one below ({@code 2d}) and the rank one above ({@code 2d + 1}), as
 * {@code MPI_Cart_shift(d, 1)} gives them; {@code PROC_NULL} past the edge of a dimension that
 * does not wrap, whose blocks stay as they are. Everything is sent and posted at once.
 *
 * <p>In a dimension of one or two ranks that wraps, one rank is both neighbours (or a rank its
 * own). Messages to the rank above are numbered before those to the rank below, and receives from
 * below before those from above, so that the message a rank sends up arrives as the one from
 * below.
 */
public final class Neighbours {

    private Neighbours() {}

    /** Starts {@code MPI_Neighbor_allgather}: this rank's block to every neighbour. */
    public static Operation allGather(Collectives c, int[] neighbours, Object sendbuf, int sendcount,
                                      Typemap sendtype, Object recvbuf, int recvcount, Typemap recvtype) {
        int k = neighbours.length;
        Region send = Arguments.buffer(sendbuf, sendcount, sendtype, false, "the send buffer");
        Arguments.count(recvcount, "the receive buffer");
        Region recv = Arguments.buffer(recvbuf, Math.multiplyExact(recvcount, k), recvtype, true,
            "the receive buffer");
        Region[] out = new Region[k];
        Region[] in = new Region[k];
        for (int j = 0; j < k; j++) {
            out[j] = send;
            in[j] = recv.slice((long) j * recvcount, recvcount);
        }
        return exchange(c, "MPI_Neighbor_allgather", neighbours, out, in);
    }

    /** Starts {@code MPI_Neighbor_allgatherv}: this rank's block to every neighbour, blocks of different sizes. */
    public static Operation allGatherv(Collectives c, int[] neighbours, Object sendbuf, int sendcount,
                                       Typemap sendtype, Object recvbuf, int[] recvcounts, int[] displs,
                                       Typemap recvtype) {
        int k = neighbours.length;
        Region send = Arguments.buffer(sendbuf, sendcount, sendtype, false, "the send buffer");
        Arguments.counts(recvcounts, displs, k, "the receive buffer");
        Memory memory = Arguments.memory(recvbuf, true);
        Region[] out = new Region[k];
        Region[] in = new Region[k];
        for (int j = 0; j < k; j++) {
            out[j] = send;
            in[j] = Arguments.part(memory, recvtype, displs[j], recvcounts[j], j, "the receive buffer");
        }
        return exchange(c, "MPI_Neighbor_allgatherv", neighbours, out, in);
    }

    /** Starts {@code MPI_Neighbor_alltoall}: block {@code j} to neighbour {@code j}. */
    public static Operation allToAll(Collectives c, int[] neighbours, Object sendbuf, int sendcount,
                                     Typemap sendtype, Object recvbuf, int recvcount, Typemap recvtype) {
        int k = neighbours.length;
        Arguments.count(sendcount, "the send buffer");
        Arguments.count(recvcount, "the receive buffer");
        Region send = Arguments.buffer(sendbuf, Math.multiplyExact(sendcount, k), sendtype, false, "the send buffer");
        Region recv = Arguments.buffer(recvbuf, Math.multiplyExact(recvcount, k), recvtype, true,
            "the receive buffer");
        Region[] out = new Region[k];
        Region[] in = new Region[k];
        for (int j = 0; j < k; j++) {
            out[j] = send.slice((long) j * sendcount, sendcount);
            in[j] = recv.slice((long) j * recvcount, recvcount);
        }
        return exchange(c, "MPI_Neighbor_alltoall", neighbours, out, in);
    }

    /** Starts {@code MPI_Neighbor_alltoallv}: block {@code j} to neighbour {@code j}, blocks of different sizes. */
    public static Operation allToAllv(Collectives c, int[] neighbours, Object sendbuf, int[] sendcounts,
                                      int[] sdispls, Typemap sendtype, Object recvbuf, int[] recvcounts,
                                      int[] rdispls, Typemap recvtype) {
        int k = neighbours.length;
        Arguments.counts(sendcounts, sdispls, k, "the send buffer");
        Arguments.counts(recvcounts, rdispls, k, "the receive buffer");
        Memory sm = Arguments.memory(sendbuf, false);
        Memory rm = Arguments.memory(recvbuf, true);
        Region[] out = new Region[k];
        Region[] in = new Region[k];
        for (int j = 0; j < k; j++) {
            out[j] = Arguments.part(sm, sendtype, sdispls[j], sendcounts[j], j, "the send buffer");
            in[j] = Arguments.part(rm, recvtype, rdispls[j], recvcounts[j], j, "the receive buffer");
        }
        return exchange(c, "MPI_Neighbor_alltoallv", neighbours, out, in);
    }

    /**
     * @param neighbours by index: for each dimension, the rank below then the rank above, or
     *     {@code PROC_NULL} (negative)
     */
    private static Operation exchange(Collectives c, String function, int[] neighbours, Region[] out, Region[] in) {
        c.chose(Collective.NEIGHBOR, () -> function, new Choice(function, "linear", () -> "each neighbour at once"));
        Plan plan = c.plan();
        for (int d = 0; d < neighbours.length / 2; d++) {
            int below = neighbours[2 * d];
            int above = neighbours[2 * d + 1];
            if (above >= 0) {
                plan.send(above, out[2 * d + 1]);
            }
            if (below >= 0) {
                plan.send(below, out[2 * d]);
            }
        }
        for (int d = 0; d < neighbours.length / 2; d++) {
            int below = neighbours[2 * d];
            int above = neighbours[2 * d + 1];
            if (below >= 0) {
                plan.receive(below, in[2 * d]);
            }
            if (above >= 0) {
                plan.receive(above, in[2 * d + 1]);
            }
        }
        return plan.start();
    }
}
