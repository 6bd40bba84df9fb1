package io.polylink.mpi.internal.comm;

import io.polylink.mpi.internal.p2p.Limits;
import io.polylink.mpi.internal.p2p.PointToPoint;
import io.polylink.plogp.LinkModel;
import io.polylink.plogp.ModelDatabase;
import io.polylink.spi.PeerLocation;
import java.io.PrintStream;
import java.util.Optional;

/**
 * What every communicator of this rank shares: the messaging, this rank's place in the job, the
 * hosts and sites of the job's ranks and whether each host runs more of them than it has cores,
 * the job's link models and the stack each kind of link takes, its context ids and attribute keys.
 */
public final class World {

    private final PointToPoint p2p;
    private final int rank;
    private final int size;
    private final ContextIds contextIds = new ContextIds();
    private final Keyvals keyvals = new Keyvals();
    /** The tag of the hosts' exchange on {@code COMM_WORLD}'s collective context. */
    private static final int HOSTS_TAG = -9;
    /** The tag of the exchange of the stacks each kind of link takes. */
    private static final int STACKS_TAG = -10;
    /** The kinds of link between two ranks, in the order of {@link #stacks}. */
    private static final PeerLocation[] KINDS = {PeerLocation.SAME_HOST, PeerLocation.SAME_SITE, PeerLocation.OTHER_SITE};

    private final ModelDatabase models;
    /**
     * For each of {@link #KINDS}, 64 bits of the hash of the stack the job's links of that kind
     * take, as the lowest rank with such a link takes it; 0 where no rank has one.
     */
    private volatile long[] stacks = new long[KINDS.length];

    private final PrintStream explain;
    private volatile int[] hosts;
    /** The site of each rank of the job, as numbers equal for ranks of one site; -1 for a host that is a site of its own. */
    private volatile int[] sites;
    private volatile boolean[] crowded;

    /**
     * @param rank this rank in the job
     * @param size the number of ranks in the job
     * @param explain where communicators print which algorithms their collectives take, or {@code null}
     * @param models the job's link models, the same at every rank
     */
    public World(PointToPoint p2p, int rank, int size, PrintStream explain, ModelDatabase models) {
        this.p2p = p2p;
        this.models = models;
        this.rank = rank;
        this.size = size;
        this.explain = explain;
        this.hosts = new int[size];
        this.sites = new int[size];
        java.util.Arrays.fill(sites, -1);
        this.crowded = new boolean[size];
    }

    /** @return the host of each rank of the job, as numbers equal for ranks of one host */
    public int[] hosts() {
        return hosts;
    }

    /**
     * @param me a rank of the job
     * @param members ranks of the job
     * @return how far each member runs from {@code me}, in order: {@code self}, {@code same-host},
     *     {@code same-site} (another host of a site both hosts name) or {@code other-site}
     */
    public java.util.List<String> locations(int me, int[] members) {
        int[] h = hosts;
        int[] s = sites;
        java.util.List<String> out = new java.util.ArrayList<>(members.length);
        for (int r : members) {
            out.add(r == me ? "self" : h[r] == h[me] ? "same-host" : s[r] >= 0 && s[r] == s[me] ? "same-site"
                : "other-site");
        }
        return out;
    }

    /**
     * @return for each rank of the job, whether its host runs more of the job's ranks than it has
     *     cores, by what the ranks there said in {@link #meet}: the same answer on every rank
     */
    public boolean[] crowded() {
        return crowded;
    }

    /**
     * Tells every other rank of the job which host and site this one runs on and how many cores
     * it has there, and learns theirs: collective over the job, once, before any communicator's
     * collectives run.
     *
     * @param host this rank's host, as the launcher names it; equal names are one host
     * @param site this rank's site, or {@code null} for a host that is a site of its own
     * @param cores the processors this rank's JVM may use
     * @throws io.polylink.mpi.internal.MpiError if a rank cannot be reached
     */
    public void meet(String host, String site, int cores) {
        long key = key(host);
        long siteKey = site == null ? 0 : key("site:" + site);
        int[] everyone = new int[size];
        java.util.Arrays.setAll(everyone, i -> i);
        int[][] said = Agreement.allGather(this, new View(everyone, size, rank), ContextIds.WORLD + 1, HOSTS_TAG,
            new int[] {(int) (key >>> 32), (int) key, cores, site == null ? 0 : 1, (int) (siteKey >>> 32),
                (int) siteKey});
        java.util.List<Long> seen = new java.util.ArrayList<>();
        int[] byRank = new int[size];
        for (int r = 0; r < size; r++) {
            long k = (long) said[r][0] << 32 | said[r][1] & 0xFFFFFFFFL;
            if (!seen.contains(k)) {
                seen.add(k);
            }
            byRank[r] = seen.indexOf(k);
        }
        // A host's cores as the fewest any of its ranks reported: JVMs of one host may be given different shares.
        int[] ranksOn = new int[seen.size()];
        int[] coresOf = new int[seen.size()];
        java.util.Arrays.fill(coresOf, Integer.MAX_VALUE);
        for (int r = 0; r < size; r++) {
            ranksOn[byRank[r]]++;
            coresOf[byRank[r]] = Math.min(coresOf[byRank[r]], said[r][2]);
        }
        boolean[] over = new boolean[size];
        for (int r = 0; r < size; r++) {
            over[r] = ranksOn[byRank[r]] > coresOf[byRank[r]];
        }
        java.util.List<Long> siteKeys = new java.util.ArrayList<>();
        int[] siteOf = new int[size];
        for (int r = 0; r < size; r++) {
            long k = (long) said[r][4] << 32 | said[r][5] & 0xFFFFFFFFL;
            if (said[r][3] == 0) {
                siteOf[r] = -1;
            } else {
                if (!siteKeys.contains(k)) {
                    siteKeys.add(k);
                }
                siteOf[r] = siteKeys.indexOf(k);
            }
        }
        crowded = over;
        sites = siteOf;
        hosts = byRank;
        boolean[] far = new boolean[size];
        for (int r = 0; r < size; r++) {
            far[r] = siteOf[rank] >= 0 && siteOf[r] >= 0 && siteOf[r] != siteOf[rank];
        }
        p2p.far(far);
        if (!models.models().isEmpty()) {
            agreeOnStacks(everyone);
        }
    }

    /**
     * Agrees with every other rank on the stack each kind of link takes, so that every rank looks
     * up the same link models: each says the stack its lowest-ranked peer of each kind takes from
     * it, and the lowest rank that has such a peer decides. Ranks of one job run the same methods,
     * so they normally agree anyway; this makes sure, and tells a rank with no peer of a kind.
     */
    private void agreeOnStacks(int[] everyone) {
        int[] mine = new int[2 * KINDS.length];
        java.util.List<String> where = locations(rank, everyone);
        for (int k = 0; k < KINDS.length; k++) {
            String kind = ModelDatabase.text(KINDS[k]);
            int peer = where.indexOf(kind);
            if (peer >= 0) {
                long h = stackKey(p2p.stacks(ContextIds.WORLD, new int[] {peer}).get(0));
                mine[2 * k] = (int) (h >>> 32);
                mine[2 * k + 1] = (int) h;
            }
        }
        int[][] said = Agreement.allGather(this, new View(everyone, size, rank), ContextIds.WORLD + 1, STACKS_TAG, mine);
        long[] agreed = new long[KINDS.length];
        for (int k = 0; k < KINDS.length; k++) {
            for (int r = 0; r < size && agreed[k] == 0; r++) {
                agreed[k] = (long) said[r][2 * k] << 32 | said[r][2 * k + 1] & 0xFFFFFFFFL;
            }
        }
        stacks = agreed;
    }

    private static long stackKey(String stack) {
        long k = key("stack:" + stack);
        return k == 0 ? 1 : k;
    }

    /**
     * @param location how far apart the link's two ranks run
     * @param pinned the stack a communicator's hint pins, or {@code null} for the job's own links
     * @return the model of that kind of link over that stack, or over the stack the job's links of
     *     that kind take, if the job has one: the same answer at every rank
     */
    public Optional<LinkModel> model(PeerLocation location, String pinned) {
        if (pinned != null) {
            return models.find(location, pinned);
        }
        for (int k = 0; k < KINDS.length; k++) {
            if (KINDS[k] == location) {
                long agreed = stacks[k];
                return models.models().stream().filter(m -> m.location() == location && stackKey(m.stack()) == agreed)
                    .findFirst();
            }
        }
        return Optional.empty();
    }

    /** @return the site of each rank of the job, as numbers equal for ranks of one site; -1 for a host that is a site of its own */
    public int[] sites() {
        return sites;
    }

    /** @return 64 bits of the SHA-256 of {@code host}: ranks compare hosts by them */
    private static long key(String host) {
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-256")
                .digest(host.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.nio.ByteBuffer.wrap(d).getLong();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }

    /** @return where communicators print their collectives' choices, or {@code null} */
    public PrintStream explain() {
        return explain;
    }

    public PointToPoint p2p() {
        return p2p;
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    public Limits limits() {
        return p2p.limits();
    }

    ContextIds contextIds() {
        return contextIds;
    }

    /** @return the attribute keys of this rank */
    public Keyvals keyvals() {
        return keyvals;
    }
}
