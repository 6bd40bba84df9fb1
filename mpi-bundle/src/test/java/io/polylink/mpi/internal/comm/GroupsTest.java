package io.polylink.mpi.internal.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import org.junit.jupiter.api.Test;

/** Group algebra as MPI defines it, on lists of the job's ranks. */
class GroupsTest {

    private static final int[] G = {7, 3, 5, 1, 9};

    @Test
    void inclusionsAndExclusionsKeepTheOrderMpiGivesThem() {
        assertArrayEquals(new int[] {1, 7}, Groups.incl(G, new int[] {3, 0}));
        assertArrayEquals(new int[] {3, 1, 9}, Groups.excl(G, new int[] {0, 2}));
        assertArrayEquals(new int[] {7, 5, 9, 1}, Groups.rangeIncl(G, new int[][] {{0, 4, 2}, {3, 3, 1}}));
        assertArrayEquals(new int[] {9, 1, 5}, Groups.rangeIncl(G, new int[][] {{4, 2, -1}}));
        assertArrayEquals(new int[] {3, 1}, Groups.rangeExcl(G, new int[][] {{0, 4, 2}}));
    }

    @Test
    void setOperationsFollowTheFirstGroupsOrder() {
        int[] other = {9, 2, 7};
        assertArrayEquals(new int[] {7, 3, 5, 1, 9, 2}, Groups.union(G, other));
        assertArrayEquals(new int[] {7, 9}, Groups.intersection(G, other));
        assertArrayEquals(new int[] {3, 5, 1}, Groups.difference(G, other));
    }

    @Test
    void translationAndComparison() {
        assertArrayEquals(new int[] {2, Groups.UNDEFINED, Groups.PROC_NULL},
            Groups.translate(G, new int[] {0, 1, Groups.PROC_NULL}, new int[] {9, 2, 7}));
        assertEquals(Groups.IDENT, Groups.compare(G, G.clone()));
        assertEquals(Groups.SIMILAR, Groups.compare(G, new int[] {9, 7, 5, 3, 1}));
        assertEquals(Groups.UNEQUAL, Groups.compare(G, new int[] {7, 3}));
    }

    @Test
    void badRanksAndRangesAreRefusedByName() {
        assertEquals(ErrorClass.ERR_RANK, assertThrows(MpiError.class, () -> Groups.incl(G, new int[] {5})).errorClass());
        assertEquals(ErrorClass.ERR_RANK, assertThrows(MpiError.class, () -> Groups.incl(G, new int[] {1, 1})).errorClass());
        assertEquals(ErrorClass.ERR_ARG,
            assertThrows(MpiError.class, () -> Groups.rangeIncl(G, new int[][] {{0, 4, 0}})).errorClass());
        assertEquals(ErrorClass.ERR_ARG,
            assertThrows(MpiError.class, () -> Groups.rangeIncl(G, new int[][] {{4, 0, 1}})).errorClass());
        assertEquals(ErrorClass.ERR_RANK,
            assertThrows(MpiError.class, () -> Groups.rangeExcl(G, new int[][] {{0, 2, 1}, {2, 3, 1}})).errorClass(),
            "overlapping ranges");
    }
}
