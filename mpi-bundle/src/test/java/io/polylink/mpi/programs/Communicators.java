package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import mpi.CartComm;
import mpi.CartParms;
import mpi.Comm;
import mpi.Group;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;
import mpi.Status;

/**
 * Communicators and groups, on five ranks: duplicates keep their traffic apart from the parent's,
 * splits order by key, {@code create} and {@code createGroup} make communicators of a group,
 * comparisons, attributes copied into duplicates, hints, names, and a 2 x 2 Cartesian grid with
 * its shifts and sub-grids.
 */
public final class Communicators {

    private Communicators() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        world.setErrhandler(MPI.ERRORS_RETURN);
        int me = world.getRank();
        int size = world.getSize();
        assertEquals(5, size);

        Intracomm dup = world.dup();
        assertEquals(MPI.CONGRUENT, Comm.compare(world, dup));
        assertEquals(MPI.IDENT, Comm.compare(dup, dup));
        assertEquals(MPI.ERRORS_RETURN, dup.getErrhandler(), "a duplicate keeps the error handler");
        if (me == 0) {
            dup.send(new int[] {1}, 1, MPI.INT, 1, 0);
            world.send(new int[] {2}, 1, MPI.INT, 1, 0);
        } else if (me == 1) {
            int[] got = new int[1];
            world.recv(got, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            assertEquals(2, got[0], "the world's receive does not match the duplicate's message");
            dup.recv(got, 1, MPI.INT, 0, 0);
            assertEquals(1, got[0]);
        }

        Intracomm halves = world.split(me % 2, -me);
        assertEquals(me % 2 == 0 ? 3 : 2, halves.getSize());
        int[] evens = {4, 2, 0};
        int[] odds = {3, 1};
        int[] mine = me % 2 == 0 ? evens : odds;
        assertEquals(indexOf(mine, me), halves.getRank(), "ranks of a split ordered by key");
        int[] sum = new int[1];
        halves.sendRecv(new int[] {me}, 1, MPI.INT, (halves.getRank() + 1) % halves.getSize(), 0,
            sum, 1, MPI.INT, (halves.getRank() + halves.getSize() - 1) % halves.getSize(), 0);
        assertEquals(mine[(halves.getRank() + halves.getSize() - 1) % halves.getSize()], sum[0]);
        assertEquals(MPI.UNEQUAL, Comm.compare(world, halves));

        Intracomm none = world.split(me == 3 ? MPI.UNDEFINED : 0, 0);
        assertEquals(me == 3, none.isNull());

        Group all = world.getGroup();
        assertEquals(5, all.getSize());
        assertEquals(me, all.getRank());
        Group firstThree = all.incl(new int[] {0, 1, 2});
        Group lastTwo = all.excl(new int[] {0, 1, 2});
        Group evenRange = all.rangeIncl(new int[][] {{0, 4, 2}});
        Group backwards = all.rangeIncl(new int[][] {{4, 0, -1}});
        assertArrayEquals(new int[] {0, 1, 2, 3, 4}, Group.translateRanks(all, new int[] {3, 4, 0, 1, 2},
            Group.union(lastTwo, firstThree)), "a union lists the first group's ranks first");
        assertArrayEquals(new int[] {0, MPI.UNDEFINED, 1}, Group.translateRanks(all, new int[] {0, 1, 2},
            Group.intersection(evenRange, firstThree)));
        Group oddOfFirstThree = Group.difference(firstThree, evenRange);
        assertEquals(1, oddOfFirstThree.getSize());
        assertArrayEquals(new int[] {0}, Group.translateRanks(all, new int[] {1}, oddOfFirstThree));
        assertEquals(MPI.SIMILAR, Group.compare(all, backwards));
        assertEquals(MPI.IDENT, Group.compare(all, Group.union(firstThree, lastTwo)));
        assertEquals(MPI.UNEQUAL, Group.compare(all, firstThree));
        assertEquals(3, all.rangeExcl(new int[][] {{1, 3, 2}}).getSize());
        assertArrayEquals(new int[] {MPI.PROC_NULL}, Group.translateRanks(all, new int[] {MPI.PROC_NULL}, firstThree));
        assertEquals(MPI.UNDEFINED, MPI.GROUP_EMPTY.getRank());

        Intracomm created = world.create(evenRange);
        assertEquals(me % 2 != 0, created.isNull(), "create gives members a communicator, others MPI_COMM_NULL");
        if (!created.isNull()) {
            assertEquals(me / 2, created.getRank());
            assertEquals(MPI.IDENT, Group.compare(created.getGroup(), evenRange));
            created.barrier();
            created.free();
            assertTrue(created.isNull());
        }
        if (me < 3) {
            Intracomm group = world.createGroup(firstThree, 12);
            assertEquals(me, group.getRank());
            assertEquals(MPI.SIMILAR, Comm.compare(group, group.split(0, -group.getRank())));
        }

        int key = Comm.createKeyval();
        List<String> value = new ArrayList<>(List.of("a", "b"));
        dup.setAttr(key, value);
        Object got = dup.getAttr(key);
        assertEquals(value, got);
        assertNotSame(value, got, "an attribute is kept as a copy");
        Intracomm dupOfDup = dup.dup();
        assertEquals(value, dupOfDup.getAttr(key), "a duplicate carries the attributes");
        dup.deleteAttr(key);
        assertNull(dup.getAttr(key));
        assertEquals(value, dupOfDup.getAttr(key));
        Comm.freeKeyval(key);
        assertEquals(Integer.MAX_VALUE, world.getAttr(MPI.TAG_UB));
        assertEquals(5, world.getAttr(MPI.UNIVERSE_SIZE));
        assertEquals(Boolean.FALSE, world.getAttr(MPI.WTIME_IS_GLOBAL));

        Info hints = new Info();
        hints.set("polylink.stack", "tcp");
        dup.setInfo(hints);
        Info back = dup.getInfo();
        assertEquals("tcp", back.get("polylink.stack"));
        assertEquals(3, back.size());
        assertEquals("polylink.stack", back.getKey(0));
        assertEquals("polylink.stacks", back.getKey(1), "the stack to each rank, a hint the bundle reports");
        assertEquals("polylink.locations", back.getKey(2), "where each rank runs, another");
        String[] locations = back.get("polylink.locations").split(",");
        for (int r = 0; r < locations.length; r++) {
            assertEquals(r == dup.getRank() ? "self" : "same-host", locations[r], "where rank " + r + " runs");
        }
        String[] stacks = back.get("polylink.stacks").split(",");
        assertEquals(dup.getSize(), stacks.length);
        for (int r = 0; r < stacks.length; r++) {
            assertEquals(r == dup.getRank() ? "local" : "tcp", stacks[r], "the stack to rank " + r);
        }
        assertNull(back.get("absent"));
        assertEquals("MPI_COMM_WORLD", world.getName());
        dup.setName("my-duplicate");
        assertEquals("my-duplicate", dup.getName());

        int[] dims = {0, 0};
        CartComm.createDims(4, dims);
        assertArrayEquals(new int[] {2, 2}, dims);
        int[] three = {0, 3, 0};
        CartComm.createDims(12, three);
        assertArrayEquals(new int[] {2, 3, 2}, three);
        CartComm grid = world.createCart(dims, new boolean[] {true, false}, false);
        assertEquals(me == 4, grid.isNull(), "rank 4 is beyond a 2 x 2 grid");
        if (!grid.isNull()) {
            assertEquals(MPI.CART, grid.getTopology());
            CartParms topo = grid.getTopo();
            assertEquals(2, topo.getDimCount());
            assertEquals(me / 2, topo.getCoord(0));
            assertEquals(me % 2, topo.getCoord(1));
            assertTrue(topo.getPeriod(0));
            assertFalse(topo.getPeriod(1));
            assertArrayEquals(new int[] {1, 0}, grid.getCoords(2));
            assertEquals(3, grid.getRank(new int[] {-1, 1}), "the periodic dimension wraps");
            ShiftParms down = grid.shift(0, 1);
            assertEquals((me + 2) % 4, down.getRankDest());
            assertEquals((me + 2) % 4, down.getRankSource());
            ShiftParms right = grid.shift(1, 1);
            assertEquals(me % 2 == 0 ? me + 1 : MPI.PROC_NULL, right.getRankDest(), "the edge of a non-periodic dimension");
            int[] token = new int[1];
            Status s = grid.sendRecv(new int[] {me}, 1, MPI.INT, right.getRankDest(), 3, token, 1, MPI.INT,
                right.getRankSource(), 3);
            assertEquals(me % 2 == 1 ? me - 1 : MPI.PROC_NULL, s.getSource());
            CartComm row = grid.sub(new boolean[] {false, true});
            assertEquals(2, row.getSize());
            assertEquals(me % 2, row.getRank());
            assertEquals(1, row.getTopo().getDimCount());
            assertEquals(grid.getRank(), grid.map(dims, new boolean[] {true, false}));
        }
        MPI.Finalize();
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        return -1;
    }
}
