package io.polylink.mpi.internal.coll;

import java.util.Arrays;

/**
 * The trees of MagPIe's wide-area collectives: a coordinator per site (the root at its own site,
 * the lowest rank at the others), a tree over the coordinators, and at each site a tree from its
 * coordinator over the site's other ranks. A coordinator sends each piece across sites first,
 * since those messages travel longest, then within its site.
 *
 * <p>The tree over the coordinators is {@code wide}-ary (its nodes in order from the root's site
 * on; {@code sites - 1} makes it flat, the root sending to every other site itself); a site's
 * tree is {@code local}-ary, or binomial for {@code local = 0}. Each rank's {@link Trees.Tree} has
 * its children in the order {@link Broadcast#along} takes them: the last one first.
 */
final class SiteTrees {

    /** A site's tree is binomial. */
    static final int BINOMIAL = 0;

    private SiteTrees() {}

    /** @return the tree of every rank of the communicator, by rank */
    static Trees.Tree[] of(Placement placement, int root, int wide, int local) {
        int sites = placement.sites();
        int[] coordinators = new int[sites];
        for (int i = 0; i < sites; i++) {
            int s = (placement.siteOf(root) + i) % sites;
            coordinators[i] = s == placement.siteOf(root) ? root : placement.ranksIn(s)[0];
        }
        int n = 0;
        for (int s = 0; s < sites; s++) {
            n += placement.ranksIn(s).length;
        }
        int[] parent = new int[n];
        Arrays.fill(parent, -1);
        int[][] sendOrder = new int[n][];
        for (int s = 0; s < sites; s++) {
            int[] members = placement.ranksIn(s);
            int coordinator = s == placement.siteOf(root) ? root : members[0];
            int[] ordered = new int[members.length];
            ordered[0] = coordinator;
            int next = 1;
            for (int r : members) {
                if (r != coordinator) {
                    ordered[next++] = r;
                }
            }
            for (int i = 0; i < ordered.length; i++) {
                int[] children = local == BINOMIAL ? reversed(Trees.binomial(ordered, 0, i).children())
                    : kary(ordered, i, local);
                sendOrder[ordered[i]] = children;
                for (int c : children) {
                    parent[c] = ordered[i];
                }
            }
        }
        for (int i = 0; i < sites; i++) {
            int[] across = kary(coordinators, i, wide);
            for (int c : across) {
                parent[c] = coordinators[i];
            }
            int me = coordinators[i];
            int[] both = Arrays.copyOf(across, across.length + sendOrder[me].length);
            System.arraycopy(sendOrder[me], 0, both, across.length, sendOrder[me].length);
            sendOrder[me] = both;
        }
        Trees.Tree[] trees = new Trees.Tree[n];
        for (int r = 0; r < n; r++) {
            trees[r] = new Trees.Tree(parent[r], reversed(sendOrder[r]));
        }
        return trees;
    }

    /** @return the children of node {@code i} of a {@code k}-ary tree over {@code nodes}, rooted at the first */
    private static int[] kary(int[] nodes, int i, int k) {
        long first = (long) i * k + 1;
        int count = (int) Math.max(0, Math.min(k, nodes.length - first));
        int[] children = new int[count];
        for (int j = 0; j < count; j++) {
            children[j] = nodes[(int) first + j];
        }
        return children;
    }

    private static int[] reversed(int[] a) {
        int[] r = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[a.length - 1 - i];
        }
        return r;
    }

    /** @return the children of {@code tree} in the order they are sent to */
    static int[] sendOrder(Trees.Tree tree) {
        return reversed(tree.children());
    }
}
