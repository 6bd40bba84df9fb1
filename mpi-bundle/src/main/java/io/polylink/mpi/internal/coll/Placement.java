package io.polylink.mpi.internal.coll;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where a communicator's ranks run: which ranks share a host, and whether a host runs more of
 * the job's ranks than it has cores. Hosts are numbered in the order their first rank appears in
 * the communicator; ranks of one host are in rank order. A hierarchical collective has one leader
 * per host talk across hosts and the others only to ranks of their own host. Immutable.
 */
public final class Placement {

    private final int[] host;
    private final int[][] ranks;
    private final boolean crowded;

    private Placement(int[] host, int[][] ranks, boolean crowded) {
        this.host = host;
        this.ranks = ranks;
        this.crowded = crowded;
    }

    /**
     * @param worldHosts the host of each rank of the job, as any numbers equal for ranks of one host
     * @param worldCrowded for each rank of the job, whether its host runs more of the job's ranks
     *     than it has cores
     * @param members the communicator's ranks, as ranks of the job
     * @return where the communicator's ranks run
     */
    public static Placement of(int[] worldHosts, boolean[] worldCrowded, int[] members) {
        boolean crowded = false;
        int[] host = new int[members.length];
        List<Integer> seen = new ArrayList<>();
        List<List<Integer>> byHost = new ArrayList<>();
        for (int r = 0; r < members.length; r++) {
            int h = seen.indexOf(worldHosts[members[r]]);
            if (h < 0) {
                h = seen.size();
                seen.add(worldHosts[members[r]]);
                byHost.add(new ArrayList<>());
            }
            host[r] = h;
            byHost.get(h).add(r);
            crowded |= worldCrowded[members[r]];
        }
        int[][] ranks = new int[byHost.size()][];
        for (int h = 0; h < ranks.length; h++) {
            ranks[h] = byHost.get(h).stream().mapToInt(Integer::intValue).toArray();
        }
        return new Placement(host, ranks, crowded);
    }

    /** @return {@code size} ranks on one host with a core each */
    public static Placement oneHost(int size) {
        return of(new int[size], new boolean[size], java.util.stream.IntStream.range(0, size).toArray());
    }

    /**
     * @return whether a host of these ranks runs more of the job's ranks than it has cores: ranks
     *     there take turns on the cores, and a collective that keeps them all busy at once waits
     *     for the turns
     */
    public boolean crowded() {
        return crowded;
    }

    /** @return the number of hosts */
    public int hosts() {
        return ranks.length;
    }

    /** @return the host of communicator rank {@code rank} */
    public int hostOf(int rank) {
        return host[rank];
    }

    /** @return the ranks on host {@code h}, in rank order */
    public int[] ranksOn(int h) {
        return ranks[h].clone();
    }

    /**
     * @param root the rank the collective starts or ends at
     * @return the leader of each host: {@code root} on its own host, the lowest rank on the others
     */
    public int[] leaders(int root) {
        int[] leaders = new int[ranks.length];
        for (int h = 0; h < ranks.length; h++) {
            leaders[h] = h == host[root] ? root : ranks[h][0];
        }
        return leaders;
    }

    /** @return e.g. {@code 4 ranks on 2 hosts (2, 2)} */
    public String describe() {
        StringBuilder out = new StringBuilder().append(host.length).append(host.length == 1 ? " rank on " : " ranks on ")
            .append(ranks.length).append(ranks.length == 1 ? " host" : " hosts");
        if (ranks.length > 1) {
            out.append(" (").append(String.join(", ", Arrays.stream(ranks).map(r -> Integer.toString(r.length))
                .toList())).append(')');
        }
        return out.toString();
    }
}
