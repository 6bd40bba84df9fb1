package io.polylink.mpi.internal.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.polylink.mpi.internal.datatype.Kind;
import io.polylink.mpi.internal.datatype.LocalCopy;
import io.polylink.mpi.internal.datatype.Memories;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import org.junit.jupiter.api.Test;

class CombiningMemoryTest {

    private static final Typemap DOUBLE = Typemap.basic(Kind.DOUBLE);

    @Test
    void whatArrivesCombinesIntoItsOwnElementsAcrossSeveralStages() {
        Reduction sum = Predefined.of(Operator.SUM, Element.DOUBLE);
        int n = 5000; // about four stages of doubles
        double[] have = new double[n];
        double[] arriving = new double[n];
        for (int i = 0; i < n; i++) {
            have[i] = i;
            arriving[i] = 0.5 * i + 1;
        }
        Operand into = sum.operand(DOUBLE, n);
        LocalCopy.copy(new Region(Memories.of(have, false), DOUBLE, n), into.region());
        Operand combining = sum.combining(into);
        assertNotNull(combining);
        int first = 1001;
        LocalCopy.copy(new Region(Memories.of(arriving, false), DOUBLE, n).slice(first, n - first),
            combining.slice(first, n - first));

        double[] out = new double[n];
        LocalCopy.copy(into.region(), new Region(Memories.of(out, true), DOUBLE, n));
        for (int i = 0; i < n; i++) {
            assertEquals(i < first ? have[i] : have[i] + arriving[i], out[i], "element " + i);
        }
    }

    @Test
    void unsignedBytesCombineAsTheKernelsDo() {
        Reduction max = Predefined.of(Operator.MAX, Element.BYTE);
        Typemap bytes = Typemap.basic(Kind.BYTE);
        Operand into = max.operand(bytes, 2);
        LocalCopy.copy(new Region(Memories.of(new byte[] {100, (byte) 255}, false), bytes, 2), into.region());
        LocalCopy.copy(new Region(Memories.of(new byte[] {(byte) 200, 3}, false), bytes, 2),
            max.combining(into).region());
        byte[] out = new byte[2];
        LocalCopy.copy(into.region(), new Region(Memories.of(out, true), bytes, 2));
        assertArrayEquals(new byte[] {(byte) 200, (byte) 255}, out);
    }

    @Test
    void onlyOperationsThatCombineElementByElementCombineAsTheyArrive() {
        Typemap complex = Typemap.contiguous(2, DOUBLE);
        Reduction complexSum = Predefined.of(Operator.SUM, Element.DOUBLE_COMPLEX);
        assertNotNull(complexSum.combining(complexSum.operand(complex, 4)), "a complex sum adds parts alone");
        Reduction complexProduct = Predefined.of(Operator.PROD, Element.DOUBLE_COMPLEX);
        assertNull(complexProduct.combining(complexProduct.operand(complex, 4)), "a product needs both parts");
        Typemap pair = Typemap.pair(Kind.DOUBLE, Kind.INT);
        Reduction minloc = Predefined.of(Operator.MINLOC, Element.DOUBLE_INT);
        assertNull(minloc.combining(minloc.operand(pair, 4)), "a pair is one value");
    }
}
