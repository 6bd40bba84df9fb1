package io.polylink.mpi.internal.p2p;

/** A communicator's ranks in terms of the job's: what a status's source is translated with. */
public interface RankMap {

    /** @return the rank in this communicator of the job's rank {@code worldRank}, or -1 if not a member */
    int rankOf(int worldRank);

    /** @return the job's rank of this communicator's {@code rank} */
    int worldRank(int rank);
}
