package io.polylink.mpi.internal.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.Kind;
import io.polylink.mpi.internal.datatype.LocalCopy;
import io.polylink.mpi.internal.datatype.Memories;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import org.junit.jupiter.api.Test;

class PredefinedTest {

    @Test
    void anOperationMpiDoesNotDefineOnATypeIsRefusedSayingWhereItApplies() {
        MpiError e = assertThrows(MpiError.class, () -> Predefined.of(Operator.MINLOC, Element.DOUBLE));
        assertEquals(ErrorClass.ERR_OP, e.errorClass());
        assertTrue(e.getMessage().contains("DOUBLE_INT"), e.getMessage());
        assertEquals(ErrorClass.ERR_OP, assertThrows(MpiError.class,
            () -> Predefined.of(Operator.SUM, Element.MIXED)).errorClass());
        assertEquals(ErrorClass.ERR_OP, assertThrows(MpiError.class,
            () -> Predefined.of(Operator.REPLACE, Element.INT)).errorClass());
    }

    @Test
    void bytesAndCharsAreUnsignedAndWrapAsCsFixedSizeIntegersDo() {
        Reduction max = Predefined.of(Operator.MAX, Element.BYTE);
        Operand a = max.operand(Typemap.basic(Kind.BYTE), 2);
        Operand b = max.operand(Typemap.basic(Kind.BYTE), 2);
        LocalCopy.copy(new Region(Memories.of(new byte[] {(byte) 200, 3}, false), Typemap.basic(Kind.BYTE), 2),
            a.region());
        LocalCopy.copy(new Region(Memories.of(new byte[] {100, (byte) 255}, false), Typemap.basic(Kind.BYTE), 2),
            b.region());
        max.combine(a, b, 0, 2);
        byte[] out = new byte[2];
        LocalCopy.copy(b.region(), new Region(Memories.of(out, true), Typemap.basic(Kind.BYTE), 2));
        assertArrayEquals(new byte[] {(byte) 200, (byte) 255}, out);
    }

    @Test
    void aDerivedTypeOfPairsReducesPairByPairInPackedRecords() {
        Typemap pair = Typemap.pair(Kind.DOUBLE, Kind.INT);
        Reduction minloc = Predefined.of(Operator.MINLOC, Element.DOUBLE_INT);
        Typemap two = Typemap.contiguous(2, pair);
        Operand a = minloc.operand(two, 1);
        Operand b = minloc.operand(two, 1);
        assertEquals(24, a.region().bytes(), "two records of a double and an int, without the padding");
        assertEquals(2, a.region().count());
    }
}
