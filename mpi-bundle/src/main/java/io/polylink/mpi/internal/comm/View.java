package io.polylink.mpi.internal.comm;

import io.polylink.mpi.internal.p2p.RankMap;
import java.util.Arrays;

/** An ordered list of the job's ranks seen from one of them: a communicator's or a group's ranks. */
final class View implements RankMap {

    private final int[] members;
    private final int[] index;
    private final int me;

    /**
     * @param members the job's ranks, by rank in the view
     * @param worldSize the number of ranks in the job
     * @param worldRank this rank in the job
     */
    View(int[] members, int worldSize, int worldRank) {
        this.members = members.clone();
        this.index = new int[worldSize];
        Arrays.fill(index, -1);
        for (int i = 0; i < members.length; i++) {
            index[members[i]] = i;
        }
        this.me = index[worldRank];
    }

    /** @return this rank's rank in the view, or -1 if not a member */
    int me() {
        return me;
    }

    int size() {
        return members.length;
    }

    int[] members() {
        return members.clone();
    }

    @Override
    public int rankOf(int worldRank) {
        return worldRank >= 0 && worldRank < index.length ? index[worldRank] : -1;
    }

    @Override
    public int worldRank(int rank) {
        return members[rank];
    }
}
