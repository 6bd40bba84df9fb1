package io.polylink.mpi.internal.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Packing and unpacking in chunks gives the bytes packing whole gives, and lands every element
 * where the receiver's layout says, for every kind of memory.
 */
class CursorTest {

    private static final Typemap STRUCT = Typemap.struct(new int[] {1, 3, 2}, new long[] {0, 4, 16},
        new Typemap[] {Typemap.basic(Kind.BYTE), Typemap.basic(Kind.SHORT), Typemap.basic(Kind.DOUBLE)});

    private static byte[] packWhole(Memory m, Typemap t, int count) {
        byte[] out = new byte[(int) (t.size() * count)];
        new Cursor(m, t, count).pack(new ArrayWriter(out, 0), out.length);
        return out;
    }

    @Test
    void chunksOfAnySizeEndOnWholePrimitivesAndAddUpToTheWholeMessage() {
        byte[] memory = new byte[(int) STRUCT.extent() * 5];
        new Random(1).nextBytes(memory);
        Memory m = Memories.ofBytes(memory, 0);
        byte[] whole = packWhole(m, STRUCT, 5);
        for (int chunk = 8; chunk < 60; chunk += 3) {
            Cursor c = new Cursor(m, STRUCT, 5);
            byte[] out = new byte[whole.length];
            ArrayWriter w = new ArrayWriter(out, 0);
            while (!c.finished()) {
                long before = w.position();
                long n = c.pack(w, chunk);
                assertEquals(n, w.position() - before);
                assertEquals(true, n > 0, "a chunk of " + chunk + " bytes takes at least one primitive");
            }
            assertArrayEquals(whole, out, "chunks of " + chunk);
        }
    }

    /** A message that goes whole, dense or not, packs and unpacks as a cursor would, short ones too. */
    @Test
    void wholeMessagesMoveAsACursorMovesThemWithOrWithoutOne() {
        Typemap doubles = Typemap.basic(Kind.DOUBLE);
        double[] values = {1.5, -2.25, Double.longBitsToDouble(0x7ff8000000000abcL), 4};
        Memory dense = Memories.of(values, false);
        byte[] packed = new byte[32];
        Cursor.packAll(dense, doubles, 4, new ArrayWriter(packed, 0));
        assertArrayEquals(packWhole(dense, doubles, 4), packed, "a dense type");
        double[] back = new double[4];
        assertEquals(32, Cursor.unpackAll(Memories.of(back, true), doubles, 4, new ArrayReader(packed, 0, 32), 32));
        assertArrayEquals(values, back);
        double[] truncated = new double[4];
        assertEquals(16, Cursor.unpackAll(Memories.of(truncated, true), doubles, 4, new ArrayReader(packed, 0, 20), 20),
            "whole primitives only");
        assertArrayEquals(new double[] {1.5, -2.25, 0, 0}, truncated);
        Typemap shifted = Typemap.hindexed(new int[] {2}, new long[] {4}, Typemap.basic(Kind.INT));
        byte[] middle = new byte[8];
        Cursor.packAll(Memories.of(new int[] {1, 2, 3, 4}, false), shifted, 1, new ArrayWriter(middle, 0));
        assertArrayEquals(new byte[] {2, 0, 0, 0, 3, 0, 0, 0}, middle, "a dense type that starts past the buffer's start");

        byte[] memory = new byte[(int) STRUCT.extent() * 3];
        new Random(2).nextBytes(memory);
        Memory m = Memories.ofBytes(memory, 0);
        byte[] whole = new byte[(int) STRUCT.size() * 3];
        Cursor.packAll(m, STRUCT, 3, new ArrayWriter(whole, 0));
        assertArrayEquals(packWhole(m, STRUCT, 3), whole, "a struct");
        byte[] landed = new byte[memory.length];
        assertEquals(whole.length, Cursor.unpackAll(Memories.ofBytes(landed, 0), STRUCT, 3,
            new ArrayReader(whole, 0, whole.length), whole.length));
        assertArrayEquals(whole, packWhole(Memories.ofBytes(landed, 0), STRUCT, 3), "unpacked where the layout says");
    }

    /**
     * A rendezvous chunk staged in direct memory holds the bytes an array holds, whatever the
     * memory's layout and kind, and whatever order the staging buffer was set to.
     */
    @Test
    void chunksPackedIntoDirectBuffersHoldTheBytesPackedIntoArrays() {
        byte[] bytes = new byte[(int) STRUCT.extent() * 5];
        new Random(2).nextBytes(bytes);
        double[] doubles = new Random(3).doubles(40).toArray();
        ByteBuffer direct = ByteBuffer.allocateDirect(320).order(ByteOrder.nativeOrder());
        direct.asDoubleBuffer().put(doubles);
        Object[][] cases = {
            {Memories.ofBytes(bytes, 0), STRUCT, 5},
            {Memories.of(doubles, false), Typemap.basic(Kind.DOUBLE), 40},
            {Memories.of(doubles, false), Typemap.hvector(10, 1, 16, Typemap.basic(Kind.DOUBLE)), 2},
            {Memories.of(new int[] {1, -2, 0x01020304, 7}, false), Typemap.basic(Kind.INT), 4},
            {Memories.of(new short[] {1, -2, 0x0102}, false), Typemap.basic(Kind.SHORT), 3},
            {Memories.of(direct, false), Typemap.basic(Kind.DOUBLE), 20},
        };
        for (Object[] c : cases) {
            Memory m = (Memory) c[0];
            Typemap t = (Typemap) c[1];
            int count = (Integer) c[2];
            byte[] whole = packWhole(m, t, count);
            for (int chunk : new int[] {8, 24, 29, whole.length}) {
                Cursor cursor = new Cursor(m, t, count);
                ByteBuffer staged = ByteBuffer.allocateDirect(whole.length + 3).order(ByteOrder.BIG_ENDIAN);
                staged.position(3);
                BufferWriter w = new BufferWriter(staged);
                while (!cursor.finished()) {
                    int before = staged.position();
                    long n = cursor.pack(w, chunk);
                    assertEquals(n, staged.position() - before,
                        "the writer moves its buffer's position by what it packed");
                }
                byte[] got = new byte[whole.length];
                staged.get(3, got);
                assertArrayEquals(whole, got, t + " x " + count + " in chunks of " + chunk);
            }
        }
    }

    @Test
    void theWireCarriesValuesLittleEndianFromEveryKindOfMemory() {
        int value = 0x01020304;
        byte[] little = {4, 3, 2, 1, 4, 3, 2, 1};
        Typemap ints = Typemap.basic(Kind.INT);
        assertArrayEquals(little, packWhole(Memories.of(new int[] {value, value}, false), ints, 2), "an int[]");
        ByteBuffer direct = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
        direct.putInt(0, value).putInt(4, value);
        assertArrayEquals(little, packWhole(Memories.of(direct, false), ints, 2), "a direct buffer");
        ByteBuffer bigEndian = ByteBuffer.allocateDirect(8).order(ByteOrder.BIG_ENDIAN);
        bigEndian.order(ByteOrder.nativeOrder()).putInt(0, value).putInt(4, value);
        assertArrayEquals(little, packWhole(Memories.of(bigEndian.order(ByteOrder.BIG_ENDIAN), false), ints, 2),
            "a direct buffer set to another order holds native values all the same");
        IntBuffer typed = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder()).asIntBuffer();
        typed.put(0, value).put(1, value);
        assertArrayEquals(little, packWhole(Memories.of(typed, false), ints, 2), "an IntBuffer");
        Typemap spaced = Typemap.hvector(2, 1, 8, ints);
        assertArrayEquals(little, packWhole(Memories.of(new int[] {value, 0, value}, false), spaced, 1),
            "values one by one");
        double[] back = new double[1];
        byte[] wire = packWhole(Memories.of(new double[] {1.0}, false), Typemap.basic(Kind.DOUBLE), 1);
        assertEquals(0x3f, wire[7], "a double's sign and exponent last");
        new Cursor(Memories.of(back, true), Typemap.basic(Kind.DOUBLE), 1).unpack(new ArrayReader(wire, 0, 8), 8);
        assertEquals(1.0, back[0]);
    }

    @Test
    void unpackingTheWireFormatRestoresEveryElementInEveryMemory() {
        double[] values = {1.5, -2, Double.NaN, 4e300, 0, -0.0};
        Typemap vector = Typemap.hvector(2, 1, 16, Typemap.basic(Kind.DOUBLE));
        assertEquals(24, vector.extent());
        byte[] wire = packWhole(Memories.of(values, false), vector, 2);
        double[] into = new double[6];
        new Cursor(Memories.of(into, true), vector, 2).unpack(new ArrayReader(wire, 0, wire.length), wire.length);
        assertArrayEquals(new double[] {1.5, 0, Double.NaN, 4e300, 0, -0.0}, into);
        ByteBuffer direct = ByteBuffer.allocateDirect(48).order(ByteOrder.nativeOrder());
        new Cursor(Memories.of(direct, true), vector, 2).unpack(new ArrayReader(wire, 0, wire.length), wire.length);
        DoubleBuffer view = direct.asDoubleBuffer();
        assertEquals(1.5, view.get(0));
        assertEquals(Double.doubleToRawLongBits(Double.NaN), Double.doubleToRawLongBits(view.get(2)));
        DoubleBuffer typed = ByteBuffer.allocateDirect(48).order(ByteOrder.nativeOrder()).asDoubleBuffer();
        new Cursor(Memories.of(typed, true), vector, 2).unpack(new ArrayReader(wire, 0, wire.length), wire.length);
        assertEquals(4e300, typed.get(3), "the second copy's first element, one extent (24 bytes) on");
    }

    @Test
    void bytesMoveThroughDirectBuffersUnchangedWhateverTheirOrderSizePositionAndLimit() {
        // Few bytes move eight at a time, more in one bulk copy: sizes on both sides of the step.
        for (int size : new int[] {0, 7, 37, 63, 64, 65, 1000, 16 * 1024 + 9, 100_003}) {
            byte[] source = new byte[size];
            new Random(size).nextBytes(source);
            ByteBuffer direct = ByteBuffer.allocateDirect(size);
            direct.put(source).position(size / 2).limit(size / 2); // as the bindings: neither counts
            byte[] wire = packWhole(Memories.of(direct, false), Typemap.basic(Kind.BYTE), size);
            assertArrayEquals(source, wire, size + " bytes packed");
            assertEquals(size / 2, direct.position(), "the buffer's position");
            ByteBuffer back = ByteBuffer.allocateDirect(size).order(ByteOrder.LITTLE_ENDIAN).limit(0);
            new Cursor(Memories.of(back, true), Typemap.basic(Kind.BYTE), size)
                .unpack(new ArrayReader(wire, 0, size), size);
            assertEquals(0, back.limit(), "the buffer's limit");
            byte[] got = new byte[size];
            back.clear().get(got);
            assertArrayEquals(source, got, size + " bytes unpacked");
        }
    }

    @Test
    void bytesOfAVectorInADirectBufferLandAtTheirOffsets() {
        // Blocks of 100 bytes, 300 apart: each block is one bulk copy that starts inside the buffer.
        Typemap vector = Typemap.hvector(3, 100, 300, Typemap.basic(Kind.BYTE));
        ByteBuffer direct = ByteBuffer.allocateDirect(1000);
        for (int i = 0; i < 1000; i++) {
            direct.put(i, (byte) i);
        }
        byte[] wire = packWhole(Memories.of(direct, false), vector, 1);
        for (int block = 0; block < 3; block++) {
            for (int i = 0; i < 100; i++) {
                assertEquals((byte) (block * 300 + i), wire[block * 100 + i], "block " + block + " byte " + i);
            }
        }
        ByteBuffer back = ByteBuffer.allocateDirect(1000);
        new Cursor(Memories.of(back, true), vector, 1).unpack(new ArrayReader(wire, 0, wire.length), wire.length);
        for (int i = 0; i < 1000; i++) {
            boolean inBlock = i < 900 && i % 300 < 100;
            assertEquals(inBlock ? (byte) i : 0, back.get(i), "byte " + i);
        }
    }

    @Test
    void layoutsThatReachOutsideTheBufferAreRefusedBeforeAnythingMoves() {
        int[] four = new int[4];
        MpiError e = assertThrows(MpiError.class,
            () -> Memories.check(Memories.of(four, false), Typemap.hvector(2, 1, 16, Typemap.basic(Kind.INT)), 1, "x"));
        assertEquals(ErrorClass.ERR_BUFFER, e.errorClass());
        MpiError negative = assertThrows(MpiError.class,
            () -> Memories.check(Memories.of(four, false), Typemap.hvector(2, 1, -4, Typemap.basic(Kind.INT)), 1, "x"));
        assertEquals(ErrorClass.ERR_BUFFER, negative.errorClass(), negative.getMessage());
        MpiError unaligned = assertThrows(MpiError.class,
            () -> Memories.check(Memories.of(four, false), Typemap.hindexed(new int[] {1}, new long[] {2},
                Typemap.basic(Kind.INT)), 1, "x"));
        assertEquals(ErrorClass.ERR_TYPE, unaligned.errorClass());
    }
}
