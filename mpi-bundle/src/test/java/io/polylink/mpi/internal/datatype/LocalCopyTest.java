package io.polylink.mpi.internal.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import org.junit.jupiter.api.Test;

class LocalCopyTest {

    /**
     * A block of an array from an element other than its first (a collective's block, a heap
     * buffer with an array offset) packs its own values in wire order, and unpacks into exactly
     * that block of another array, nothing around it touched.
     */
    @Test
    void aBlockFromWithinAnArrayPacksAndUnpacksItsOwnValues() {
        int[] ints = new int[100];
        for (int i = 0; i < ints.length; i++) {
            ints[i] = 1000 + i;
        }
        double[] doubles = new double[100];
        for (int i = 0; i < doubles.length; i++) {
            doubles[i] = i + 0.25;
        }
        Memory[] intSources = {Memories.of(ints, false), Memories.of(IntBuffer.wrap(ints, 7, 60).slice(), false)};
        int[] intShifts = {0, 7};
        for (int s = 0; s < intSources.length; s++) {
            Region whole = new Region(intSources[s], Typemap.basic(Kind.INT), 60);
            ByteBuffer packed = ByteBuffer.allocateDirect(40 * 4);
            LocalCopy.pack(whole.slice(13, 40), packed);
            for (int i = 0; i < 40; i++) {
                assertEquals(1000 + intShifts[s] + 13 + i, packed.order(WireWriter.ORDER).getInt(i * 4),
                    "int " + i + " packed from source " + s);
            }
            int[] into = new int[100];
            LocalCopy.unpack(packed, new Region(Memories.of(into, true), Typemap.basic(Kind.INT), 100).slice(21, 40));
            for (int i = 0; i < into.length; i++) {
                int expected = i >= 21 && i < 61 ? 1000 + intShifts[s] + 13 + i - 21 : 0;
                assertEquals(expected, into[i], "int " + i + " unpacked from source " + s);
            }
        }
        Region whole = new Region(Memories.of(DoubleBuffer.wrap(doubles, 5, 90).slice(), false),
            Typemap.basic(Kind.DOUBLE), 90);
        ByteBuffer packed = ByteBuffer.allocateDirect(30 * 8);
        LocalCopy.pack(whole.slice(50, 30), packed);
        double[] into = new double[40];
        LocalCopy.unpack(packed, new Region(Memories.of(into, true), Typemap.basic(Kind.DOUBLE), 40).slice(9, 30));
        for (int i = 0; i < into.length; i++) {
            assertEquals(i >= 9 && i < 39 ? 5 + 50 + i - 9 + 0.25 : 0.0, into[i], "double " + i);
        }
    }

    /**
     * Between a direct buffer whose values lie as the wire's and a block within an array, either
     * way, the values land in exactly that block and nothing around it changes.
     */
    @Test
    void valuesGoBetweenADirectBufferAndABlockWithinAnArray() {
        ByteBuffer bytes = ByteBuffer.allocateDirect(50 * 8).order(ByteOrder.nativeOrder());
        DoubleBuffer direct = bytes.asDoubleBuffer();
        for (int i = 0; i < 50; i++) {
            direct.put(i, i * 1.5);
        }
        Region buffer = new Region(Memories.of(bytes, true), Typemap.basic(Kind.DOUBLE), 50);
        double[] array = new double[80];
        Region block = new Region(Memories.of(array, true), Typemap.basic(Kind.DOUBLE), 80).slice(17, 30);
        LocalCopy.copy(buffer.slice(10, 30), block);
        for (int i = 0; i < array.length; i++) {
            assertEquals(i >= 17 && i < 47 ? (i - 17 + 10) * 1.5 : 0.0, array[i], "double " + i + " of the array");
        }
        for (int i = 0; i < 30; i++) {
            array[17 + i] = -i;
        }
        LocalCopy.copy(block, buffer.slice(5, 30));
        for (int i = 0; i < 50; i++) {
            assertEquals(i >= 5 && i < 35 ? -(i - 5) : i * 1.5, direct.get(i), "double " + i + " of the buffer");
        }
    }
}
