package io.polylink.mpi.internal.coll;

import io.polylink.plogp.LinkModel;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * What a broadcast along {@link SiteTrees} costs by the links' P-LogP models, and the segment size
 * and tree degrees that make it cheapest, by MagPIe's heuristic or by trying every one.
 *
 * <p>The estimate follows each segment down the trees: a rank sends a segment once it has it, once
 * its earlier sends have taken their send overhead {@code os(s)} of its time (at most that of a
 * message of MPI's eager limit: a larger one's data is pushed on a thread of its own as the link
 * takes it, and its {@code os} is mostly waiting for that), and once the link to
 * that child has carried the segments before it, each taking the link's gap {@code g(s)}; the
 * segment arrives {@code L + g(s)} after it started on the link, or half its round trip
 * {@code RTT(s) / 2} if that is more (a message above MPI's eager limit waits for its receiver's
 * answer, which a stream of them hides). Links to different children are
 * apart: as between the sites of a wide-area testbed, each pair of sites has its own. The
 * broadcast ends when the last rank has the last segment.
 *
 * @param wide the model of links between sites
 * @param site the model of links between two hosts of a site, or {@code null}
 * @param host the model of links within a host, or {@code null}; without either, links within a
 *     site are taken to cost nothing (every site holds one rank, or the sites' links are far
 *     cheaper than the wide-area ones)
 * @param eagerLimit MPI's eager limit: a larger message costs its sender what one of this size
 *     does (docs/performance-notes.md#magpie-testbed)
 */
public record WideAreaCost(LinkModel wide, LinkModel site, LinkModel host, long eagerLimit) {

    /** The smallest segment tried, unless the message is smaller. */
    static final long MIN_SEGMENT = 1024;
    /** The most segments a message is cut into. */
    static final long MAX_SEGMENTS = 1024;

    /**
     * A broadcast's shape and its estimate.
     *
     * @param segment bytes per segment; the message's size for one segment
     * @param wide the degree of the tree over the sites' coordinators
     * @param local the degree of each site's tree
     * @param micros the estimated time
     */
    public record Shape(long segment, int wide, int local, double micros) {}

    /** A link that costs nothing, for links within a site that no model describes. */
    private static final LinkModel FREE = new LinkModel(io.polylink.spi.PeerLocation.SAME_HOST, "none", 0,
        java.util.List.of(new io.polylink.plogp.SizeParameters(0, 0, 0, 0, 0)), java.time.Instant.EPOCH, "");

    /** @throws NullPointerException without a model of the links between sites */
    public WideAreaCost {
        java.util.Objects.requireNonNull(wide, "wide");
    }

    /**
     * @param localDegree the degree of each site's tree, or 0 for binomial trees
     * @return the estimated time of broadcasting {@code bytes} from {@code root} in segments of
     *     {@code segment} bytes with these degrees, in microseconds
     */
    public double micros(Placement placement, int root, long bytes, long segment, int wideDegree, int localDegree) {
        Trees.Tree[] trees = SiteTrees.of(placement, root, wideDegree, localDegree);
        int n = trees.length;
        int[] order = new int[n];
        int[][] sends = new int[n][];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add(root);
        for (int k = 0; k < n; k++) {
            int r = queue.remove();
            order[k] = r;
            sends[r] = SiteTrees.sendOrder(trees[r]);
            for (int c : sends[r]) {
                queue.add(c);
            }
        }
        LinkModel[][] links = new LinkModel[n][];
        for (int r = 0; r < n; r++) {
            links[r] = new LinkModel[sends[r].length];
            for (int j = 0; j < sends[r].length; j++) {
                links[r][j] = link(placement, r, sends[r][j]);
            }
        }
        double[] busy = new double[n];
        double[][] line = new double[n][];
        for (int r = 0; r < n; r++) {
            line[r] = new double[sends[r].length];
        }
        double[] have = new double[n];
        long segments = bytes == 0 ? 1 : (bytes + segment - 1) / segment;
        for (long s = 0; s < segments; s++) {
            long size = Math.min(segment, bytes - s * segment);
            for (int r : order) {
                double t = r == root ? 0 : have[r];
                for (int j = 0; j < sends[r].length; j++) {
                    LinkModel l = links[r][j];
                    double g = l.gap(size);
                    double start = Math.max(Math.max(busy[r], t), line[r][j]);
                    busy[r] = start + l.sendOverhead(Math.min(size, eagerLimit));
                    line[r][j] = start + g;
                    // A message of MPI's rendezvous waits a round trip for its receiver, which a
                    // stream hides and a lone message pays: half its round trip, if that is more.
                    have[sends[r][j]] = start + Math.max(l.latency() + g, l.roundTrip(size) / 2);
                }
            }
        }
        return Arrays.stream(have).max().orElse(0);
    }

    private LinkModel link(Placement p, int from, int to) {
        if (p.siteOf(from) != p.siteOf(to)) {
            return wide;
        }
        LinkModel inSite = p.hostOf(from) == p.hostOf(to) ? (host != null ? host : site) : (site != null ? site : host);
        return inSite != null ? inSite : FREE;
    }

    /**
     * MagPIe's heuristic: for each pair of degrees at which a tree's height drops (from 1, a chain,
     * up to a flat tree; a degree between two such gains no height, only sends), the segment size
     * by a binary search over {@code M / 2^i}; then, from the best of those, hill climbing on the
     * degrees in steps of 1 and 5 and on the segment size in factors of 2, until no step helps.
     *
     * @param element the size of the message's elements: segments hold whole elements
     */
    public Shape heuristic(Placement p, int root, long bytes, long element) {
        long[] segments = segments(bytes, element, eagerLimit);
        int maxWide = Math.max(1, p.sites() - 1);
        int maxLocal = maxLocal(p);
        Shape best = null;
        for (int w : heightDrops(maxWide + 1)) {
            for (int l : heightDrops(maxLocal + 1)) {
                int lo = 0;
                int hi = segments.length - 1;
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (micros(p, root, bytes, segments[mid + 1], w, l) < micros(p, root, bytes, segments[mid], w, l)) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                double t = micros(p, root, bytes, segments[lo], w, l);
                if (best == null || t < best.micros()) {
                    best = new Shape(segments[lo], w, l, t);
                }
            }
        }
        for (boolean climbing = true; climbing; ) {
            climbing = false;
            int i = indexOf(segments, best.segment());
            Shape start = best;
            for (int step : new int[] {-5, -1, 1, 5}) {
                best = better(best, p, root, bytes, start.segment(), start.wide() + step, start.local(), maxWide, maxLocal);
                best = better(best, p, root, bytes, start.segment(), start.wide(), start.local() + step, maxWide, maxLocal);
            }
            for (int j : new int[] {i - 1, i + 1}) {
                if (j >= 0 && j < segments.length) {
                    best = better(best, p, root, bytes, segments[j], start.wide(), start.local(), maxWide, maxLocal);
                }
            }
            climbing = best != start;
        }
        return best;
    }

    private Shape better(Shape best, Placement p, int root, long bytes, long segment, int w, int l, int maxWide,
                         int maxLocal) {
        if (w < 1 || w > maxWide || l < 1 || l > maxLocal) {
            return best;
        }
        double t = micros(p, root, bytes, segment, w, l);
        return t < best.micros() ? new Shape(segment, w, l, t) : best;
    }

    /** @return the degrees from 1 up at which a tree over {@code n} nodes gets lower */
    static int[] heightDrops(int n) {
        int[] out = new int[Math.max(1, n)];
        int count = 0;
        int last = Integer.MAX_VALUE;
        for (int k = 1; k <= Math.max(1, n - 1); k++) {
            int h = height(k, n);
            if (h < last) {
                out[count++] = k;
                last = h;
            }
        }
        return Arrays.copyOf(out, count);
    }

    /** @return the levels below the root of a {@code k}-ary tree over {@code n} nodes filled in order */
    private static int height(int k, int n) {
        int h = 0;
        for (long node = n - 1; node > 0; node = (node - 1) / k) {
            h++;
        }
        return h;
    }

    private static int indexOf(long[] values, long v) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == v) {
                return i;
            }
        }
        return 0;
    }

    /** @return the shape of MagPIe's original broadcast, the whole message down a flat tree across sites and binomial trees within them, and its estimate */
    public Shape original(Placement p, int root, long bytes) {
        int wide = Math.max(1, p.sites() - 1);
        long whole = Math.max(1, bytes);
        return new Shape(whole, wide, SiteTrees.BINOMIAL, micros(p, root, bytes, whole, wide, SiteTrees.BINOMIAL));
    }

    /** @return the cheapest of every segment size {@code M / 2^i} and every pair of degrees */
    public Shape exhaustive(Placement p, int root, long bytes, long element) {
        Shape best = null;
        for (long s : segments(bytes, element, eagerLimit)) {
            for (int w = 1; w <= Math.max(1, p.sites() - 1); w++) {
                for (int l = 1; l <= maxLocal(p); l++) {
                    double t = micros(p, root, bytes, s, w, l);
                    if (best == null || t < best.micros()) {
                        best = new Shape(s, w, l, t);
                    }
                }
            }
        }
        return best;
    }

    /**
     * @return the segment sizes tried, {@code M / 2^i} in whole elements, largest first: the whole
     *     message, then only segments up to the eager limit, since a larger segment waits a round
     *     trip for its receiver that the pipeline does not hide
     */
    static long[] segments(long bytes, long element, long eagerLimit) {
        long elements = Math.max(1, bytes / Math.max(1, element));
        long[] out = new long[64];
        int n = 0;
        for (long parts = 1; parts <= elements; parts <<= 1) {
            long s = (elements + parts - 1) / parts * Math.max(1, element);
            if (n > 0 && (s < MIN_SEGMENT || parts > MAX_SEGMENTS)) {
                break;
            }
            if (n == 0 || s <= eagerLimit) {
                out[n++] = s;
            }
        }
        return Arrays.copyOf(out, Math.max(1, n));
    }

    private static int maxLocal(Placement p) {
        int most = 1;
        for (int s = 0; s < p.sites(); s++) {
            most = Math.max(most, p.ranksIn(s).length - 1);
        }
        return most;
    }
}
