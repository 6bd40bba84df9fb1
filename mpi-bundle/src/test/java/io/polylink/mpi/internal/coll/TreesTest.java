package io.polylink.mpi.internal.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TreesTest {

    /** Checks that the trees every rank computes agree: one root, each other rank its parent's child, once. */
    private static void spans(int n, java.util.function.IntFunction<Trees.Tree> treeOf, int root) {
        List<Integer> seen = new ArrayList<>();
        for (int me = 0; me < n; me++) {
            Trees.Tree t = treeOf.apply(me);
            if (me == root) {
                assertEquals(-1, t.parent(), "the root has no parent");
            } else {
                int parent = t.parent();
                assertTrue(parent >= 0 && parent < n, "rank " + me + " of " + n + " has a parent");
                assertTrue(java.util.Arrays.stream(treeOf.apply(parent).children()).anyMatch(c -> c == parent ? false
                    : true), "its parent has children");
                int me2 = me;
                assertTrue(java.util.Arrays.stream(treeOf.apply(parent).children()).anyMatch(c -> c == me2),
                    "rank " + me + " is a child of its parent " + parent);
            }
            for (int c : t.children()) {
                seen.add(c);
            }
        }
        assertEquals(n - 1, seen.size(), "every rank but the root is one child");
        assertEquals(n - 1, seen.stream().distinct().count(), "no rank is a child twice");
    }

    @Test
    void binomialAndChainTreesSpanEveryRankOnceFromAnyRoot() {
        for (int n = 1; n <= 9; n++) {
            int[] all = java.util.stream.IntStream.range(0, n).toArray();
            for (int root = 0; root < n; root++) {
                int r = root;
                spans(n, me -> Trees.binomial(all, r, me), root);
                spans(n, me -> Trees.chain(all, r, me), root);
            }
        }
    }

    @Test
    void hierarchicalTreesSpanEveryRankAndCrossHostsOnlyBetweenLeaders() {
        int[] hosts = {0, 1, 1, 0, 2, 1, 0};
        int n = hosts.length;
        Placement p = Placement.of(hosts, new int[n], new boolean[n], java.util.stream.IntStream.range(0, n).toArray());
        assertEquals(3, p.hosts());
        for (int root = 0; root < n; root++) {
            int r = root;
            spans(n, me -> Trees.hierarchical(p, Trees.Shape.BINOMIAL, r, me), root);
            int[] leaders = p.leaders(root);
            for (int me = 0; me < n; me++) {
                Trees.Tree t = Trees.hierarchical(p, Trees.Shape.CHAIN, root, me);
                for (int c : t.children()) {
                    boolean across = p.hostOf(c) != p.hostOf(me);
                    int child = c;
                    assertTrue(!across || java.util.Arrays.stream(leaders).anyMatch(l -> l == child),
                        "only leaders are sent to across hosts");
                }
            }
        }
    }
}
