package io.polylink.mpi.internal.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import org.junit.jupiter.api.Test;

/** Sizes, bounds and extents of typemaps, as MPI defines them for each constructor. */
class TypemapTest {

    private static final Typemap INT = Typemap.basic(Kind.INT);
    private static final Typemap DOUBLE = Typemap.basic(Kind.DOUBLE);

    @Test
    void pairTypesArePaddedAsCStructs() {
        Typemap doubleInt = Typemap.pair(Kind.DOUBLE, Kind.INT);
        assertEquals(12, doubleInt.size());
        assertEquals(16, doubleInt.extent());
        Typemap shortInt = Typemap.pair(Kind.SHORT, Kind.INT);
        assertEquals(6, shortInt.size());
        assertEquals(8, shortInt.extent());
        assertEquals(8, Typemap.pair(Kind.INT, Kind.INT).extent());
        assertEquals(16, Typemap.pair(Kind.LONG, Kind.INT).extent());
    }

    @Test
    void aContiguousTypeIsOneDenseBlockHoweverLarge() {
        Typemap big = Typemap.contiguous(1_000_000_000L, Typemap.contiguous(4, INT));
        assertEquals(1, big.blocks());
        assertTrue(big.isDense());
        assertEquals(16_000_000_000L, big.size());
    }

    @Test
    void aVectorSpansFromItsFirstBlockToTheEndOfItsLast() {
        Typemap v = Typemap.hvector(3, 2, 20, INT);
        assertEquals(24, v.size());
        assertEquals(0, v.lb());
        assertEquals(48, v.extent());
        assertEquals(3, v.blocks());
        Typemap backwards = Typemap.hvector(3, 1, -8, INT);
        assertEquals(-16, backwards.lb());
        assertEquals(20, backwards.extent());
    }

    @Test
    void indexedBlocksMergeWhenAdjacent() {
        Typemap t = Typemap.hindexed(new int[] {1, 2, 1}, new long[] {0, 4, 20}, INT);
        assertEquals(2, t.blocks(), "blocks at 0 and 4 touch");
        assertEquals(24, t.extent());
        assertEquals(16, t.size());
    }

    @Test
    void structPadsToItsLargestPrimitive() {
        Typemap s = Typemap.struct(new int[] {1, 1}, new long[] {0, 8}, new Typemap[] {Typemap.basic(Kind.CHAR), DOUBLE});
        assertEquals(10, s.size());
        assertEquals(16, s.extent());
        Typemap unaligned = Typemap.struct(new int[] {1, 1}, new long[] {0, 4}, new Typemap[] {INT, DOUBLE});
        assertEquals(16, unaligned.extent(), "12 bytes of data rounded up to the double's 8");
        assertEquals(12, unaligned.trueExtent());
    }

    @Test
    void resizedTypesKeepTheirDataAndTakeTheGivenBounds() {
        Typemap r = Typemap.resized(Typemap.hvector(2, 1, 12, INT), -4, 32);
        assertEquals(-4, r.lb());
        assertEquals(32, r.extent());
        assertEquals(0, r.trueLb());
        assertEquals(16, r.trueExtent());
        Typemap copies = Typemap.contiguous(3, r);
        assertEquals(-4, copies.lb());
        assertEquals(96, copies.extent());
    }

    @Test
    void elementsAndWholeBytesOfAPartialMessage() {
        Typemap s = Typemap.struct(new int[] {1, 2}, new long[] {0, 8}, new Typemap[] {INT, DOUBLE});
        assertEquals(20, s.size());
        assertEquals(3, s.elementsIn(20));
        assertEquals(4, s.elementsIn(24), "a whole copy and its int");
        assertEquals(4, s.elementsIn(31), "a double needs all its 8 bytes");
        assertEquals(24, s.wholeBytesWithin(31));
        assertEquals(12, s.bytesOfElements(2));
    }

    @Test
    void aTypeOfTooManyBlocksIsRefusedBeforeItFillsTheHeap() {
        MpiError e = assertThrows(MpiError.class, () -> Typemap.hvector(Typemap.MAX_BLOCKS + 1, 1, 8, INT));
        assertEquals(ErrorClass.ERR_TYPE, e.errorClass());
    }
}
