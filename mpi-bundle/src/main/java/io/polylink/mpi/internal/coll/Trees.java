package io.polylink.mpi.internal.coll;

/**
 * This rank's place in the trees collectives send along. A tree is over some of the
 * communicator's ranks ({@code members}, given by index); its root's index is {@code root}.
 */
final class Trees {

    private Trees() {}

    /** The shape of a tree. */
    enum Shape { BINOMIAL, CHAIN, FLAT }

    /**
     * This rank's parent and children, ranks of the communicator.
     *
     * @param parent -1 at the root
     * @param children in the order of their subtrees' ranks: lower relative ranks first
     */
    record Tree(int parent, int[] children) {}

    /**
     * A binomial tree: the member {@code 2^k} above another (relatively to the root) is its child,
     * for each {@code 2^k} below the lowest set bit of that member's relative rank. A member's
     * subtree holds the relative ranks from its own up to the next multiple of that bit.
     *
     * @param me this rank's index in {@code members}
     */
    static Tree binomial(int[] members, int root, int me) {
        int n = members.length;
        int vr = Math.floorMod(me - root, n);
        int parent = -1;
        int mask = 1;
        while (mask < n) {
            if ((vr & mask) != 0) {
                parent = members[Math.floorMod(vr - mask + root, n)];
                break;
            }
            mask <<= 1;
        }
        int count = 0;
        for (int m = 1; m < mask && vr + m < n; m <<= 1) {
            count++;
        }
        int[] children = new int[count];
        int i = 0;
        for (int m = 1; m < mask && vr + m < n; m <<= 1) {
            children[i++] = members[(vr + m + root) % n];
        }
        return new Tree(parent, children);
    }

    /** A chain from the root through the members in order of their relative ranks. */
    static Tree chain(int[] members, int root, int me) {
        int n = members.length;
        int vr = Math.floorMod(me - root, n);
        int parent = vr == 0 ? -1 : members[(vr - 1 + root) % n];
        int[] children = vr + 1 < n ? new int[] {members[(vr + 1 + root) % n]} : new int[0];
        return new Tree(parent, children);
    }

    /** The root's children are all the other members, in order of their relative ranks. */
    static Tree flat(int[] members, int root, int me) {
        int n = members.length;
        if (me != root) {
            return new Tree(members[root], new int[0]);
        }
        int[] children = new int[n - 1];
        for (int vr = 1; vr < n; vr++) {
            children[vr - 1] = members[(vr + root) % n];
        }
        return new Tree(-1, children);
    }

    static Tree of(Shape shape, int[] members, int root, int me) {
        return switch (shape) {
            case CHAIN -> chain(members, root, me);
            case FLAT -> flat(members, root, me);
            case BINOMIAL -> binomial(members, root, me);
        };
    }

    /**
     * A tree over all ranks of the communicator rooted at {@code root}: across hosts a tree of
     * {@code shape} over the hosts' leaders (the root on its host), and on each host a tree of
     * the same shape from its leader over its other ranks. A leader's children are the other
     * leaders' first, then its host's.
     *
     * @param me this rank in the communicator
     */
    static Tree hierarchical(Placement placement, Shape shape, int root, int me) {
        int[] leaders = placement.leaders(root);
        int host = placement.hostOf(me);
        int[] local = placement.ranksOn(host);
        Tree within = of(shape, local, indexOf(local, leaders[host]), indexOf(local, me));
        if (leaders[host] != me) {
            return within;
        }
        Tree across = of(shape, leaders, placement.hostOf(root), host);
        int[] children = new int[across.children().length + within.children().length];
        System.arraycopy(across.children(), 0, children, 0, across.children().length);
        System.arraycopy(within.children(), 0, children, across.children().length, within.children().length);
        return new Tree(across.parent(), children);
    }

    static int indexOf(int[] members, int rank) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == rank) {
                return i;
            }
        }
        return -1;
    }
}
