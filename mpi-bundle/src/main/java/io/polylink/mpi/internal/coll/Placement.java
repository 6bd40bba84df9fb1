package io.polylink.mpi.internal.coll;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where a communicator's ranks run: which ranks share a host, which hosts share a site, and
 * whether a host runs more of the job's ranks than it has cores. Hosts and sites are numbered in
 * the order their first rank appears in the communicator; ranks of one host or site are in rank
 * order; a host that names no site is a site of its own. A hierarchical collective has one leader
 * per host talk across hosts and the others only to ranks of their own host; a wide-area one, one
 * coordinator per site. Immutable.
 */
public final class Placement {

    private final int[] host;
    private final int[][] ranks;
    private final int[] site;
    private final int[][] siteRanks;
    private final boolean named;
    private final boolean crowded;

    private Placement(int[] host, int[][] ranks, int[] site, int[][] siteRanks, boolean named, boolean crowded) {
        this.host = host;
        this.ranks = ranks;
        this.site = site;
        this.siteRanks = siteRanks;
        this.named = named;
        this.crowded = crowded;
    }

    /**
     * @param worldHosts the host of each rank of the job, as any numbers equal for ranks of one host
     * @param worldSites the site of each rank of the job, as any numbers equal for ranks of one
     *     site, or -1 for a host that is a site of its own
     * @param worldCrowded for each rank of the job, whether its host runs more of the job's ranks
     *     than it has cores
     * @param members the communicator's ranks, as ranks of the job
     * @return where the communicator's ranks run
     */
    public static Placement of(int[] worldHosts, int[] worldSites, boolean[] worldCrowded, int[] members) {
        Numbered hosts = Numbered.of(members, r -> (long) worldHosts[r]);
        // A host of no site is a site of its own: keyed by its host, apart from every named site.
        Numbered sites = Numbered.of(members, r -> worldSites[r] >= 0 ? worldSites[r] : -1L - worldHosts[r]);
        boolean crowded = false;
        boolean named = false;
        for (int m : members) {
            crowded |= worldCrowded[m];
            named |= worldSites[m] >= 0;
        }
        return new Placement(hosts.of, hosts.members, sites.of, sites.members, named, crowded);
    }

    /** Members numbered by a key, in the order each key first appears, and the members of each number. */
    private record Numbered(int[] of, int[][] members) {
        static Numbered of(int[] members, java.util.function.IntToLongFunction key) {
            int[] of = new int[members.length];
            List<Long> seen = new ArrayList<>();
            List<List<Integer>> by = new ArrayList<>();
            for (int r = 0; r < members.length; r++) {
                long k = key.applyAsLong(members[r]);
                int n = seen.indexOf(k);
                if (n < 0) {
                    n = seen.size();
                    seen.add(k);
                    by.add(new ArrayList<>());
                }
                of[r] = n;
                by.get(n).add(r);
            }
            return new Numbered(of, by.stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray())
                .toArray(int[][]::new));
        }
    }

    /** @return {@code size} ranks on one host with a core each */
    public static Placement oneHost(int size) {
        return of(new int[size], new int[size], new boolean[size], java.util.stream.IntStream.range(0, size).toArray());
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

    /** @return the number of sites */
    public int sites() {
        return siteRanks.length;
    }

    /** @return the site of communicator rank {@code rank} */
    public int siteOf(int rank) {
        return site[rank];
    }

    /** @return the ranks of site {@code s}, in rank order */
    public int[] ranksIn(int s) {
        return siteRanks[s].clone();
    }

    /**
     * @return whether the ranks are at more than one site and some rank named its site: a job
     *     whose hosts name no site is one cluster, whose collectives stay hierarchical by host
     */
    public boolean spansSites() {
        return named && siteRanks.length > 1;
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

    /** @return e.g. {@code 4 ranks on 2 hosts (2, 2)}, and {@code at 2 sites (3, 1)} when they span sites */
    public String describe() {
        StringBuilder out = new StringBuilder().append(host.length).append(host.length == 1 ? " rank on " : " ranks on ")
            .append(ranks.length).append(ranks.length == 1 ? " host" : " hosts");
        if (ranks.length > 1) {
            out.append(" (").append(String.join(", ", Arrays.stream(ranks).map(r -> Integer.toString(r.length))
                .toList())).append(')');
        }
        if (siteRanks.length > 1) {
            out.append(" at ").append(siteRanks.length).append(" sites (").append(String.join(", ",
                Arrays.stream(siteRanks).map(r -> Integer.toString(r.length)).toList())).append(')');
        }
        return out.toString();
    }
}
