package io.polylink.core.internal.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.DescriptorTable;
import io.polylink.MalformedMessageException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CodecTest {

    private static final DescriptorTable TABLE = DescriptorTable.of(List.of(
        new Descriptor("local", new byte[0]),
        new Descriptor("shm", new byte[] {1, 2, 3}),
        new Descriptor("lz4+aead/tcp", new byte[] {127, 0, 0, 1, 0x1b, 0x58})));

    private static String malformed(Runnable r) {
        return assertThrows(MalformedMessageException.class, r::run).getMessage();
    }

    @Test
    void headerIsTwelveBytesAndValidatesItsLength() {
        ByteBuffer header = ByteBuffer.allocate(FrameHeader.MAX_LENGTH);
        FrameHeader.writeAuthenticated(header, 0, 3, 0xFFFF, 77, 0);
        assertEquals(8, header.remaining(), "everything but the length is authenticated");
        FrameHeader.writeLength(header, 5);
        ByteBuffer frame = ByteBuffer.allocate(17).put(header).put(new byte[5]).flip();

        assertEquals(FrameHeader.LENGTH, FrameHeader.validate(frame, 100));
        assertEquals(3, FrameHeader.stackId(frame));
        assertEquals(0xFFFF, FrameHeader.handler(frame));
        assertEquals(77, FrameHeader.endpoint(frame));
    }

    @Test
    void badHeadersAreRefusedWithTheirReason() {
        ByteBuffer header = ByteBuffer.allocate(FrameHeader.MAX_LENGTH);
        FrameHeader.writeAuthenticated(header, 0, 0, 1, 1, 0);
        FrameHeader.writeLength(header, 5);
        ByteBuffer frame = ByteBuffer.allocate(16).put(header).put(new byte[4]).flip();

        assertEquals("frame declares a payload of 5 bytes but carries 4", malformed(() -> FrameHeader.validate(frame, 100)));
        assertEquals("frame declares a payload of 5 bytes, the bound is 4", malformed(() -> FrameHeader.validate(frame, 4)));
        assertEquals("frame of 3 bytes is shorter than the 12-byte header",
            malformed(() -> FrameHeader.validate(ByteBuffer.allocate(3), 4)));
        frame.put(0, (byte) 0x21);
        assertEquals("frame of protocol version 2, this context speaks 1; upgrade the older side",
            malformed(() -> FrameHeader.validate(frame, 100)));
        frame.put(0, (byte) 0x18);
        assertEquals("frame with unknown flags 0x8", malformed(() -> FrameHeader.validate(frame, 100)));
    }

    @Test
    void tableRoundTripsAndItsIdDependsOnItsBytes() {
        EncodedTable encoded = EncodedTable.of(TABLE);
        assertEquals(TABLE, TableCodec.decode(ByteBuffer.wrap(encoded.bytes())));
        assertEquals(encoded.id(), EncodedTable.of(TABLE).id());
        assertTrue(encoded.id() != EncodedTable.of(TABLE.prefer("shm")).id());
    }

    @Test
    void everyTruncationOfATableIsMalformed() {
        byte[] bytes = TableCodec.encode(TABLE);
        for (int n = 0; n < bytes.length; n++) {
            ByteBuffer cut = ByteBuffer.wrap(bytes, 0, n);
            assertTrue(malformed(() -> TableCodec.decode(cut)).startsWith("truncated"), "cut at " + n);
        }
    }

    @Test
    void tableBoundsAreCheckedBeforeAllocating() {
        assertEquals("descriptor table of 65 entries exceeds 64",
            malformed(() -> TableCodec.decode(ByteBuffer.wrap(new byte[] {1, 65}))));
        assertEquals("descriptor address of 65535 bytes exceeds 1024",
            malformed(() -> TableCodec.decode(ByteBuffer.wrap(new byte[] {1, 1, 1, 'x', -1, -1}))));
        assertEquals("descriptor table entry 1 has a malformed method stack 'X': expected names of [a-z0-9-] "
            + "like 'tcp' or 'lz4+aead/tcp'",
            malformed(() -> TableCodec.decode(ByteBuffer.wrap(new byte[] {1, 1, 1, 'X', 0, 0}))));
        assertEquals("descriptor table of version 9, this context reads 1",
            malformed(() -> TableCodec.decode(ByteBuffer.wrap(new byte[] {9, 0}))));
    }

    @Test
    void startpointTextRoundTripsAndRejectsGarbage() {
        StartpointCodec.TargetRef[] targets = {
            new StartpointCodec.TargetRef(ContextId.random(), 5, EncodedTable.of(TABLE)),
            new StartpointCodec.TargetRef(ContextId.random(), 6, EncodedTable.of(DescriptorTable.empty()))};
        String text = StartpointCodec.toText(targets);
        assertTrue(text.matches("polylink:[A-Za-z0-9_-]+"), text);

        StartpointCodec.TargetRef[] back = StartpointCodec.fromText(text);
        assertEquals(2, back.length);
        for (int i = 0; i < 2; i++) {
            assertEquals(targets[i].context(), back[i].context());
            assertEquals(targets[i].endpoint(), back[i].endpoint());
            assertEquals(targets[i].table().table(), back[i].table().table());
            assertArrayEquals(targets[i].table().bytes(), back[i].table().bytes());
        }
        assertEquals("not a startpoint: text must start with 'polylink:'", malformed(() -> StartpointCodec.fromText("http://x")));
        assertTrue(malformed(() -> StartpointCodec.fromText("polylink:!!")).startsWith("not a startpoint: "));
        assertEquals("startpoint with no target", malformed(() -> StartpointCodec.fromText("polylink:AQA")));
        assertEquals("startpoint text has 1 bytes after its last target",
            malformed(() -> StartpointCodec.fromText(text + "AA")).replaceAll("\\d+ bytes", "1 bytes"));
    }

    @Test
    void descriptorStacksAreParsed() {
        Descriptor d = new Descriptor("lz4+aead/tcp", new byte[0]);
        assertEquals("tcp", d.method());
        assertEquals(List.of("lz4", "aead"), d.transforms());
        for (String bad : List.of("", "/tcp", "lz4+/tcp", "TCP", "a/b/c", "x".repeat(33))) {
            assertThrows(IllegalArgumentException.class, () -> new Descriptor(bad, new byte[0]), bad);
        }
        List<Descriptor> many = new ArrayList<>();
        for (int i = 0; i < 65; i++) {
            many.add(new Descriptor("m" + i, new byte[0]));
        }
        assertThrows(IllegalArgumentException.class, () -> DescriptorTable.of(many));
    }
}
