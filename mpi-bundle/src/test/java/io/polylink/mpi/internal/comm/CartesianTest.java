package io.polylink.mpi.internal.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import org.junit.jupiter.api.Test;

/** Cartesian coordinates, shifts and the balanced factorizations of {@code MPI_Dims_create}. */
class CartesianTest {

    private static int[] dims(int nodes, int... given) {
        Cartesian.fillDims(nodes, given);
        return given;
    }

    @Test
    void dimsAreBalancedAndLargestFirst() {
        assertArrayEquals(new int[] {3, 2}, dims(6, 0, 0));
        assertArrayEquals(new int[] {2, 2, 2}, dims(8, 0, 0, 0));
        assertArrayEquals(new int[] {4, 3}, dims(12, 0, 0));
        assertArrayEquals(new int[] {7, 1}, dims(7, 0, 0));
        assertArrayEquals(new int[] {3, 5, 2}, dims(30, 0, 5, 0));
        assertArrayEquals(new int[] {6, 6}, dims(36, 0, 0));
    }

    @Test
    void dimsThatCannotHoldTheNodesAreRefused() {
        assertEquals(ErrorClass.ERR_DIMS, assertThrows(MpiError.class, () -> dims(10, 3, 0)).errorClass());
        assertEquals(ErrorClass.ERR_DIMS, assertThrows(MpiError.class, () -> dims(4, 3, 1)).errorClass());
        assertEquals(ErrorClass.ERR_DIMS, assertThrows(MpiError.class, () -> dims(0, 0)).errorClass());
    }

    @Test
    void coordinatesAreRowMajorAndShiftsStopAtNonPeriodicEdges() {
        Cartesian grid = new Cartesian(new int[] {2, 3}, new boolean[] {false, true});
        assertArrayEquals(new int[] {1, 2}, grid.coords(5));
        assertEquals(5, grid.rank(new int[] {1, -1}));
        assertArrayEquals(new int[] {Groups.PROC_NULL, 4}, grid.shift(1, 0, 1));
        assertArrayEquals(new int[] {5, 4}, grid.shift(3, 1, 1), "the periodic dimension wraps");
        assertEquals(ErrorClass.ERR_ARG, assertThrows(MpiError.class, () -> grid.rank(new int[] {2, 0})).errorClass());
        assertArrayEquals(new int[] {3}, grid.sub(new boolean[] {false, true}).dims());
        assertEquals(1, grid.slice(4, new boolean[] {false, true}));
    }
}
