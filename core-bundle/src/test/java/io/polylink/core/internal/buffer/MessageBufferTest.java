package io.polylink.core.internal.buffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.MalformedMessageException;
import io.polylink.MessageBuffer;
import io.polylink.MessageTooLargeException;
import io.polylink.core.internal.EmbeddedContext;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MessageBufferTest {

    private final EmbeddedContext embedded = EmbeddedContext.open(4096, 1, List.of());

    @AfterEach
    void close() {
        embedded.close();
    }

    private MessageBuffer buffer(int capacity) {
        return embedded.context().allocateBuffer(capacity);
    }

    @Test
    void everyTypeRoundTripsInNetworkByteOrderAndTheBufferGrows() {
        MessageBuffer m = buffer(1).putByte((byte) -2).putBoolean(true).putShort((short) 0x0102)
            .putInt(0x03040506).putLong(-7L).putFloat(1.5f).putDouble(-2.25)
            .putBytes(new byte[] {9, 8}).putRaw(new byte[] {1, 2, 3, 4}, 1, 2).putString("grüße");
        assertEquals(1 + 1 + 2 + 4 + 8 + 4 + 8 + 6 + 2 + 4 + 7, m.length());
        MessageBufferImpl impl = (MessageBufferImpl) m;
        ByteBuffer wire = impl.payload();
        assertEquals(0x01, wire.get(2), "most significant byte first");
        assertEquals(0x02, wire.get(3));
        impl.releasePayload();

        assertEquals(-2, m.getByte());
        assertTrue(m.getBoolean());
        assertEquals(0x0102, m.getShort());
        assertEquals(0x03040506, m.getInt());
        assertEquals(-7L, m.getLong());
        assertEquals(1.5f, m.getFloat());
        assertEquals(-2.25, m.getDouble());
        assertArrayEquals(new byte[] {9, 8}, m.getBytes());
        byte[] raw = new byte[2];
        m.getRaw(raw, 0, 2);
        assertArrayEquals(new byte[] {2, 3}, raw);
        assertEquals("grüße", m.getString());
        assertEquals(0, m.remaining());
    }

    @Test
    void arraysOfValuesWriteWhatOneValueAtATimeWouldAndReadBackExactly() {
        short[] shorts = {1, -2, Short.MAX_VALUE};
        char[] chars = {'a', '\u00fc', '\uffff'};
        int[] ints = {0x01020304, -5, Integer.MIN_VALUE};
        long[] longs = {0x0102030405060708L, -9L};
        float[] floats = {1.5f, Float.intBitsToFloat(0x7fc00001)}; // a NaN with a payload
        double[] doubles = {-2.25, Double.longBitsToDouble(0x7ff8000000000abcL)};
        MessageBuffer bulk = buffer(1).putByte((byte) 7).putShorts(shorts, 0, 3).putChars(chars, 1, 2)
            .putInts(ints, 0, 3).putLongs(longs, 0, 2).putFloats(floats, 0, 2).putDoubles(doubles, 0, 2);
        MessageBuffer single = buffer(1).putByte((byte) 7);
        for (short v : shorts) {
            single.putShort(v);
        }
        single.putShort((short) chars[1]).putShort((short) chars[2]);
        for (int v : ints) {
            single.putInt(v);
        }
        single.putLong(longs[0]).putLong(longs[1]).putInt(Float.floatToRawIntBits(floats[0]))
            .putInt(Float.floatToRawIntBits(floats[1])).putLong(Double.doubleToRawLongBits(doubles[0]))
            .putLong(Double.doubleToRawLongBits(doubles[1]));
        assertEquals(single.length(), bulk.length());
        byte[] expected = new byte[single.length()];
        single.getRaw(expected, 0, expected.length);
        byte[] actual = new byte[bulk.length()];
        bulk.getRaw(actual, 0, actual.length);
        assertArrayEquals(expected, actual);

        bulk.rewind();
        assertEquals(7, bulk.getByte());
        short[] s = new short[4];
        bulk.getShorts(s, 1, 3);
        assertArrayEquals(new short[] {0, 1, -2, Short.MAX_VALUE}, s);
        char[] c = new char[2];
        bulk.getChars(c, 0, 2);
        assertArrayEquals(new char[] {'\u00fc', '\uffff'}, c);
        int[] i = new int[3];
        bulk.getInts(i, 0, 3);
        assertArrayEquals(ints, i);
        long[] l = new long[2];
        bulk.getLongs(l, 0, 2);
        assertArrayEquals(longs, l);
        float[] f = new float[2];
        bulk.getFloats(f, 0, 2);
        assertEquals(0x7fc00001, Float.floatToRawIntBits(f[1]), "a NaN's bits as they were");
        double[] d = new double[2];
        bulk.getDoubles(d, 0, 2);
        assertEquals(0x7ff8000000000abcL, Double.doubleToRawLongBits(d[1]));
        assertEquals(0, bulk.remaining());
    }

    @Test
    void arraysOfValuesInAChosenByteOrderLayOutEachValueSoAndReadBackExactly() {
        short[] shorts = {0x0102, -2};
        char[] chars = {'\u0304', '\uffff'};
        int[] ints = {0x05060708, Integer.MIN_VALUE};
        long[] longs = {0x090a0b0c0d0e0f10L, -9L};
        float[] floats = {1.5f, Float.intBitsToFloat(0x7fc00001)};
        double[] doubles = {-2.25, Double.longBitsToDouble(0x7ff8000000000abcL)};
        ByteOrder little = ByteOrder.LITTLE_ENDIAN;
        MessageBuffer m = buffer(1).putShorts(shorts, 0, 2, little).putChars(chars, 0, 2, little)
            .putInts(ints, 0, 2, little).putLongs(longs, 0, 2, little).putFloats(floats, 0, 2, little)
            .putDoubles(doubles, 0, 2, little);
        ByteBuffer expected = ByteBuffer.allocate(m.length()).order(little);
        expected.putShort(shorts[0]).putShort(shorts[1]).putChar(chars[0]).putChar(chars[1]).putInt(ints[0])
            .putInt(ints[1]).putLong(longs[0]).putLong(longs[1]).putFloat(floats[0]).putFloat(floats[1])
            .putDouble(doubles[0]).putDouble(doubles[1]);
        assertEquals(expected.capacity(), m.length());
        byte[] actual = new byte[m.length()];
        m.getRaw(actual, 0, actual.length);
        assertArrayEquals(expected.array(), actual, "each value least significant byte first");

        m.rewind();
        short[] s = new short[2];
        m.getShorts(s, 0, 2, little);
        assertArrayEquals(shorts, s);
        char[] c = new char[2];
        m.getChars(c, 0, 2, little);
        assertArrayEquals(chars, c);
        int[] i = new int[2];
        m.getInts(i, 0, 2, little);
        assertArrayEquals(ints, i);
        long[] l = new long[2];
        m.getLongs(l, 0, 2, little);
        assertArrayEquals(longs, l);
        float[] f = new float[2];
        m.getFloats(f, 0, 2, little);
        assertEquals(0x7fc00001, Float.floatToRawIntBits(f[1]), "a NaN's bits as they were");
        double[] d = new double[2];
        m.getDoubles(d, 0, 2, little);
        assertEquals(0x7ff8000000000abcL, Double.doubleToRawLongBits(d[1]));
        assertEquals(0, m.remaining());

        m.rewind();
        assertEquals(0x0201, m.getShort(), "one-value reads stay in network byte order");
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
            () -> m.getDoubles(new double[8], 0, 8, little));
        assertTrue(e.getMessage().contains("8 doubles (64 bytes) at offset 2"), e.getMessage());
        assertEquals(2, m.readIndex(), "nothing consumed");
    }

    /** Short arrays move value by value, long ones in bulk: both lay out and read back alike. */
    @Test
    void arraysShortAndLongLayOutAsValueByValueInEitherOrderFromAnOffset() {
        for (ByteOrder order : List.of(ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN)) {
            for (int count : new int[] {1, 15, 16, 17, 100}) {
                int n = count + 1;
                short[] shorts = new short[n];
                char[] chars = new char[n];
                int[] ints = new int[n];
                long[] longs = new long[n];
                float[] floats = new float[n];
                double[] doubles = new double[n];
                ByteBuffer expected = ByteBuffer.allocate(count * 28).order(order);
                for (int k = 1; k < n; k++) {
                    shorts[k] = (short) (0x0102 * k);
                    chars[k] = (char) (0xff00 + k);
                    ints[k] = 0x01020304 * k;
                    longs[k] = 0x0102030405060708L * k;
                    floats[k] = Float.intBitsToFloat(0x7fc00000 + k);
                    doubles[k] = Double.longBitsToDouble(0x7ff8000000000000L + k);
                }
                for (int k = 1; k < n; k++) {
                    expected.putShort(shorts[k]);
                }
                for (int k = 1; k < n; k++) {
                    expected.putChar(chars[k]);
                }
                for (int k = 1; k < n; k++) {
                    expected.putInt(ints[k]);
                }
                for (int k = 1; k < n; k++) {
                    expected.putLong(longs[k]);
                }
                for (int k = 1; k < n; k++) {
                    expected.putFloat(floats[k]);
                }
                for (int k = 1; k < n; k++) {
                    expected.putDouble(doubles[k]);
                }
                MessageBuffer m = buffer(8).putShorts(shorts, 1, count, order).putChars(chars, 1, count, order)
                    .putInts(ints, 1, count, order).putLongs(longs, 1, count, order).putFloats(floats, 1, count, order)
                    .putDoubles(doubles, 1, count, order);
                byte[] actual = new byte[m.length()];
                m.getRaw(actual, 0, actual.length);
                String what = count + " values, " + order;
                assertArrayEquals(expected.array(), actual, what);

                m.rewind();
                short[] s = new short[n];
                m.getShorts(s, 1, count, order);
                assertArrayEquals(shorts, s, what);
                char[] c = new char[n];
                m.getChars(c, 1, count, order);
                assertArrayEquals(chars, c, what);
                int[] i = new int[n];
                m.getInts(i, 1, count, order);
                assertArrayEquals(ints, i, what);
                long[] l = new long[n];
                m.getLongs(l, 1, count, order);
                assertArrayEquals(longs, l, what);
                float[] f = new float[n];
                m.getFloats(f, 1, count, order);
                double[] d = new double[n];
                m.getDoubles(d, 1, count, order);
                for (int k = 1; k < n; k++) {
                    assertEquals(Float.floatToRawIntBits(floats[k]), Float.floatToRawIntBits(f[k]), what + ": a NaN's bits");
                    assertEquals(Double.doubleToRawLongBits(doubles[k]), Double.doubleToRawLongBits(d[k]), what);
                }
                assertEquals(0, m.remaining(), what);
            }
        }
    }

    @Test
    void arraysOfValuesAreBoundsCheckedAndAShortMessageIsMalformed() {
        MessageBuffer m = buffer(64);
        assertThrows(IndexOutOfBoundsException.class, () -> m.putLongs(new long[2], 1, 2));
        assertEquals(0, m.length(), "nothing written");
        m.putInts(new int[] {1, 2, 3}, 0, 3);
        assertThrows(IndexOutOfBoundsException.class, () -> m.getInts(new int[2], 0, 3));
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> m.getLongs(new long[2], 0, 2));
        assertTrue(e.getMessage().contains("2 longs (16 bytes) at offset 0"), e.getMessage());
        assertEquals(0, m.readIndex(), "nothing consumed");
        int[] back = new int[3];
        m.getInts(back, 0, 3);
        assertArrayEquals(new int[] {1, 2, 3}, back);
        MessageBuffer full = buffer(16).putRaw(new byte[4090], 0, 4090);
        assertThrows(MessageTooLargeException.class, () -> full.putDoubles(new double[1], 0, 1));
        assertEquals(4090, full.length(), "what was written is kept");
    }

    @Test
    void rawBytesMoveFromAndIntoBuffersAtTheirIndicesLeavingTheirPositionsAlone() {
        ByteBuffer direct = ByteBuffer.allocateDirect(16).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 16; i++) {
            direct.put(i, (byte) i);
        }
        direct.position(3).limit(5);
        MessageBuffer m = buffer(1).putByte((byte) 9).putRaw(direct, 6, 8).putRaw(ByteBuffer.wrap(new byte[] {7}), 0, 1);
        assertEquals(3, direct.position(), "the source's position");
        assertEquals(5, direct.limit(), "the source's limit");
        byte[] wire = new byte[m.length()];
        m.getRaw(wire, 0, wire.length);
        assertArrayEquals(new byte[] {9, 6, 7, 8, 9, 10, 11, 12, 13, 7}, wire);

        m.rewind();
        m.getByte();
        ByteBuffer target = ByteBuffer.allocateDirect(12).position(11);
        m.getRaw(target, 2, 8);
        assertEquals(11, target.position(), "the target's position");
        assertEquals(6, target.get(2));
        assertEquals(13, target.get(9));
        assertEquals(0, target.get(10), "nothing past the bytes read");
        assertEquals(9, m.readIndex());

        assertThrows(IndexOutOfBoundsException.class, () -> m.getRaw(target, 5, 8));
        assertThrows(ReadOnlyBufferException.class, () -> m.getRaw(target.asReadOnlyBuffer(), 0, 1));
        assertEquals(9, m.readIndex(), "a refused read consumes nothing");
        assertThrows(MalformedMessageException.class, () -> m.getRaw(target, 0, 2));
        assertEquals(9, m.readIndex());
        int length = m.length();
        assertThrows(IndexOutOfBoundsException.class, () -> m.putRaw(direct, 10, 7));
        assertEquals(length, m.length(), "nothing written");
        MessageBuffer full = buffer(16).putRaw(new byte[4090], 0, 4090);
        assertThrows(MessageTooLargeException.class, () -> full.putRaw(direct, 0, 7));
        assertEquals(4090, full.length(), "what was written is kept");
    }

    @Test
    void lentBytesCountInTheLengthAndComeBackOnceTheBufferLetsGoOfThem() {
        ByteBuffer lent = ByteBuffer.allocateDirect(32);
        for (int i = 0; i < 32; i++) {
            lent.put(i, (byte) i);
        }
        lent.position(3).limit(20); // neither used nor changed
        AtomicInteger back = new AtomicInteger();
        MessageBufferImpl m = (MessageBufferImpl) buffer(8).putInt(7).putLent(lent, 4, 10, back::incrementAndGet);
        assertEquals(14, m.length());
        assertEquals(4, m.payload().remaining(), "the buffer's own bytes; the lent ones follow");
        assertEquals(10, m.lent().length());

        assertEquals(7, m.getInt()); // a read copies the lent bytes in, and lets go of them
        assertEquals(1, back.get());
        byte[] rest = new byte[10];
        m.getRaw(rest, 0, 10);
        assertArrayEquals(new byte[] {4, 5, 6, 7, 8, 9, 10, 11, 12, 13}, rest);
        assertEquals(null, m.lent());

        m.clear().putLent(lent, 0, 2, back::incrementAndGet).putByte((byte) 99); // a write after copies them in first
        assertEquals(2, back.get());
        assertEquals(3, m.length());
        m.clear().putLent(lent, 0, 2, back::incrementAndGet).putLent(lent, 30, 2, back::incrementAndGet);
        assertEquals(3, back.get(), "a second loan copies the first in");
        m.clear();
        assertEquals(4, back.get(), "clear lets go of the loan");
        assertEquals(0, m.length());
        assertEquals(3, lent.position());
        assertEquals(20, lent.limit());
    }

    @Test
    void aLoanOutOfBoundsOrTooLargeIsRefusedAndOneWhoseCallbackThrowsLeavesTheThreadRunning() {
        ByteBuffer lent = ByteBuffer.allocate(5000);
        MessageBuffer m = buffer(8).putInt(1);
        assertThrows(IndexOutOfBoundsException.class, () -> m.putLent(lent, 4990, 11, () -> { }));
        MessageTooLargeException e = assertThrows(MessageTooLargeException.class, () -> m.putLent(lent, 0, 4093, () -> { }));
        assertTrue(e.getMessage().contains("4097 bytes exceeds the maximum of 4096"), e.getMessage());
        assertEquals(4, m.length(), "nothing lent");

        List<Throwable> reported = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.currentThread().getUncaughtExceptionHandler();
        Thread.currentThread().setUncaughtExceptionHandler((t, x) -> reported.add(x));
        try {
            m.putLent(lent, 0, 10, () -> {
                throw new IllegalStateException("the application's callback failed");
            });
            m.clear();
        } finally {
            Thread.currentThread().setUncaughtExceptionHandler(before);
        }
        assertEquals(1, reported.size());
        assertEquals("the application's callback failed", reported.get(0).getMessage());
        assertEquals(4, m.putInt(2).length(), "the buffer goes on");
    }

    @Test
    void readingPastTheEndSaysWhatAndWhere() {
        MessageBuffer m = buffer(8).putInt(1);
        m.getShort();
        MalformedMessageException e = assertThrows(MalformedMessageException.class, m::getLong);
        assertEquals("read of long (8 bytes) at offset 2 runs past the end of the 4-byte message", e.getMessage());
        assertEquals(2, m.readIndex(), "a failed read consumes nothing");
    }

    @Test
    void aLengthPrefixLargerThanWhatIsLeftIsRefusedBeforeAllocating() {
        MessageBuffer m = buffer(8).putInt(Integer.MAX_VALUE).putInt(0);
        MalformedMessageException e = assertThrows(MalformedMessageException.class, m::getBytes);
        assertEquals("byte array at offset 0 declares 2147483647 bytes, 4 are left", e.getMessage());
        assertEquals(0, m.readIndex());
        MessageBuffer negative = buffer(8).putInt(-1);
        assertThrows(MalformedMessageException.class, negative::getString);
    }

    @Test
    void invalidUtf8AndBadBooleansAreMalformed() {
        MessageBuffer m = buffer(8).putBytes(new byte[] {(byte) 0xC3, 0x28});
        assertEquals("string at offset 0 is not valid UTF-8",
            assertThrows(MalformedMessageException.class, m::getString).getMessage());
        MessageBuffer b = buffer(1).putByte((byte) 7);
        assertEquals("boolean at offset 0 is 7, expected 0 or 1",
            assertThrows(MalformedMessageException.class, b::getBoolean).getMessage());
    }

    @Test
    void writingPastTheMaximumMessageSizeFailsAndKeepsWhatWasWritten() {
        MessageBuffer m = buffer(16).putRaw(new byte[4090], 0, 4090);
        MessageTooLargeException e = assertThrows(MessageTooLargeException.class, () -> m.putLong(1));
        assertEquals("message of 4098 bytes exceeds the maximum of 4096; split it or raise maxMessageSize "
            + "in the io.polylink.core configuration", e.getMessage());
        assertEquals(4090, m.length());
        m.putRaw(new byte[6], 0, 6);
        assertEquals(4096, m.length());
        assertThrows(IllegalArgumentException.class, () -> buffer(4097));
    }

    @Test
    void clearAndRewindReuseTheBuffer() {
        MessageBuffer m = buffer(4).putInt(1);
        assertEquals(1, m.getInt());
        m.rewind();
        assertEquals(1, m.getInt());
        m.clear().putInt(2);
        assertEquals(4, m.length());
        assertEquals(2, m.getInt());
    }
}
