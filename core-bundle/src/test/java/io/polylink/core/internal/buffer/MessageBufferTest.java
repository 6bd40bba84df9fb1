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
import java.util.List;
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
