package io.polylink.mpi.internal.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.plogp.LinkModel;
import io.polylink.plogp.SizeParameters;
import io.polylink.spi.PeerLocation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** MagPIe's trees over sites, what a broadcast along them costs by P-LogP, and the heuristic's choice. */
class WideAreaCostTest {

    /** The paper's wide-area link: 10 ms one way, 1 MB/s. */
    static final LinkModel WIDE = linear(PeerLocation.OTHER_SITE, 10_000, 20, 1.0);
    /** A cluster's link: 20 µs, 1 GB/s. */
    static final LinkModel SITE = linear(PeerLocation.SAME_SITE, 20, 2, 0.001);

    static LinkModel linear(PeerLocation where, double latency, double gap0, double microsPerByte) {
        long big = 4L << 20;
        return new LinkModel(where, "tcp", latency, List.of(new SizeParameters(0, 1, 1, gap0, 2 * (latency + gap0)),
            new SizeParameters(big, 1, 1, gap0 + microsPerByte * big, 2 * (latency + gap0 + microsPerByte * big))),
            Instant.EPOCH, "");
    }

    /** @return ranks at sites of the given sizes, each site's ranks on hosts of their own */
    static Placement sites(int... sizes) {
        int n = IntStream.of(sizes).sum();
        int[] site = new int[n];
        int r = 0;
        for (int s = 0; s < sizes.length; s++) {
            for (int i = 0; i < sizes[s]; i++) {
                site[r++] = s;
            }
        }
        return Placement.of(IntStream.range(0, n).toArray(), site, new boolean[n], IntStream.range(0, n).toArray());
    }

    @Test
    void aCoordinatorSendsAcrossSitesFirstAndEveryRankHasOneParentOnTheWayToTheRoot() {
        Placement p = sites(3, 2, 1);
        Trees.Tree[] trees = SiteTrees.of(p, 4, 2, 2);
        assertArrayEquals(new int[] {5, 0, 3}, SiteTrees.sendOrder(trees[4]), "the other sites' coordinators, then its own site");
        assertEquals(-1, trees[4].parent());
        assertEquals(4, trees[0].parent());
        assertEquals(4, trees[5].parent());
        assertArrayEquals(new int[] {1, 2}, SiteTrees.sendOrder(trees[0]));
        assertEquals(4, trees[3].parent(), "the root's site: its coordinator is the root");
        int[] parents = IntStream.range(0, 6).map(r -> trees[r].parent()).toArray();
        for (int r = 0; r < 6; r++) {
            int hops = 0;
            for (int at = r; at != 4; at = parents[at]) {
                assertTrue(++hops < 6, "rank " + r + " reaches the root");
            }
        }
        List<Integer> children = new ArrayList<>();
        for (Trees.Tree t : trees) {
            IntStream.of(t.children()).forEach(children::add);
        }
        assertEquals(List.of(0, 1, 2, 3, 5), children.stream().sorted().toList(), "every rank but the root once");
    }

    @Test
    void aWholeMessageToFourSitesTakesItsLinksGapAndLatencyAfterTheRootsOverheads() {
        WideAreaCost cost = new WideAreaCost(WIDE, null, null, 65_536);
        double g = WIDE.gap(1024);
        assertEquals(1044, g, 1e-6);
        assertEquals(2 + g + 10_000, cost.micros(sites(1, 1, 1, 1), 0, 1024, 1024, 3, 1), 1e-6,
            "each site its own link: the third send waits only for the root's two send overheads");
        assertEquals(3 * (g + 10_000), cost.micros(sites(1, 1, 1, 1), 0, 1024, 1024, 1, 1), 1e-6,
            "a chain: three hops to the last site");
        assertEquals(2 + 2 * g + 10_000, cost.micros(sites(1, 1, 1, 1), 0, 2048, 1024, 3, 1), 1e-6,
            "two segments down one link, one behind the other");
        assertEquals(g + 10_000, cost.original(sites(2, 2), 0, 1024).micros(), 1e-6,
            "the other site first, and links within a site without a model cost nothing");
    }

    @Test
    void theHeuristicComesWithinAFewPercentOfTheBestShapeTriedExhaustively() {
        WideAreaCost cost = new WideAreaCost(WIDE, SITE, null, 65_536);
        List<String> worst = new ArrayList<>();
        double worstRatio = 1;
        for (int[] shape : new int[][] {{1, 1, 1, 1}, {2, 2, 2, 2}, {1, 1, 1, 1, 1, 1, 1, 1}, {3, 3}, {4, 1, 2}}) {
            Placement p = sites(shape);
            for (long bytes = 1024; bytes <= 4L << 20; bytes <<= 2) {
                WideAreaCost.Shape h = cost.heuristic(p, 0, bytes, 8);
                WideAreaCost.Shape e = cost.exhaustive(p, 0, bytes, 8);
                assertTrue(e.micros() <= h.micros() + 1e-6, "nothing beats the exhaustive search");
                double ratio = h.micros() / e.micros();
                if (ratio > worstRatio) {
                    worstRatio = ratio;
                    worst.add(java.util.Arrays.toString(shape) + " " + bytes + " B: " + h + " against " + e);
                }
            }
        }
        assertTrue(worstRatio <= 1.05, "the heuristic's worst: " + worst);
    }

    @Test
    void theDegreesTriedAreThoseAtWhichATreeGetsLower() {
        assertArrayEquals(new int[] {1, 2, 3, 7}, WideAreaCost.heightDrops(8));
        assertArrayEquals(new int[] {1}, WideAreaCost.heightDrops(2));
        assertArrayEquals(new int[] {1}, WideAreaCost.heightDrops(1));
        assertArrayEquals(new int[] {1, 2}, WideAreaCost.heightDrops(3));
    }

    @Test
    void segmentsAreWholeElementsNeverMoreThanAThousandAndAboveTheEagerLimitOnlyWhole() {
        assertArrayEquals(new long[] {4096, 2048, 1024}, WideAreaCost.segments(4096, 8, 65_536));
        assertArrayEquals(new long[] {24}, WideAreaCost.segments(24, 8, 65_536), "a small message goes whole");
        long[] many = WideAreaCost.segments(64L << 20, 8, 1L << 30);
        assertEquals(64L << 20 >> 10, many[many.length - 1], "at most 1024 segments");
        assertArrayEquals(new long[] {3000 * 12, 1500 * 12, 750 * 12, 375 * 12, 188 * 12, 94 * 12},
            WideAreaCost.segments(3000 * 12, 12, 65_536));
        assertArrayEquals(new long[] {1 << 20, 65_536, 32_768, 16_384, 8192, 4096, 2048, 1024},
            WideAreaCost.segments(1 << 20, 1, 65_536), "the whole message, then segments up to the eager limit");
    }
}
