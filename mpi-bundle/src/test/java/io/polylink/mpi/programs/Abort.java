package io.polylink.mpi.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * Rank 2 aborts the job while the others wait for it (or have not got that far): every rank ends
 * with its code, and every later call fails saying who aborted. The others wait in a receive from
 * rank 2, or with argument {@code barrier} in a barrier, after a first one all ranks passed (over
 * shm, one in memory the ranks share, which no message ends), or with {@code bcast} for a 1 MiB
 * broadcast from rank 2 there.
 */
public final class Abort {

    private Abort() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int me = -1;
        try {
            me = MPI.COMM_WORLD.getRank();
            String in = args.length > 0 ? args[0] : "receive";
            if (!in.equals("receive")) {
                MPI.COMM_WORLD.barrier();
            }
            if (me == 2) {
                MPI.COMM_WORLD.abort(7);
            } else if (in.equals("barrier")) {
                MPI.COMM_WORLD.barrier();
            } else if (in.equals("bcast")) {
                MPI.COMM_WORLD.bcast(new byte[1 << 20], 1 << 20, MPI.BYTE, 2);
            } else {
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 2, 0);
            }
        } catch (MPIException e) {
            System.out.println("rank " + me + " stopped: " + e.getErrorClass() + " " + e.getMessage());
        }
        try {
            MPI.COMM_WORLD.getRank();
        } catch (MPIException e) {
            System.out.println("rank " + me + " after the abort: " + e.getMessage());
        }
    }
}
