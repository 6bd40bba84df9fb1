package io.polylink.core.internal.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.DescriptorTable;
import io.polylink.MalformedMessageException;
import io.polylink.spi.HostIdentity;
import io.polylink.spi.PeerLocation;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class CodecTest {

    private static final DescriptorTable TABLE = DescriptorTable.of(List.of(
        new Descriptor("local", new byte[0]),
        new Descriptor("shm", new byte[] {1, 2, 3}),
        new Descriptor("lz4+aead/tcp", new byte[] {127, 0, 0, 1, 0x1b, 0x58})));
    private static final Origin ORIGIN = new Origin(HostIdentity.named("codec-test"), "lab-2");

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
    void tableRoundTripsWithItsOriginAndItsIdDependsOnItsBytes() {
        EncodedTable encoded = EncodedTable.of(TABLE, ORIGIN);
        EncodedTable read = TableCodec.read(ByteBuffer.wrap(encoded.bytes()));
        assertEquals(TABLE, read.table());
        assertEquals(ORIGIN, read.origin());
        assertEquals(encoded.id(), read.id());
        assertEquals(encoded.id(), EncodedTable.of(TABLE, ORIGIN).id());
        assertTrue(encoded.id() != EncodedTable.of(TABLE.prefer("shm"), ORIGIN).id());
        assertTrue(encoded.id() != EncodedTable.of(TABLE, Origin.UNKNOWN).id(), "the origin is part of the table");
        assertEquals(Origin.UNKNOWN, TableCodec.read(ByteBuffer.wrap(EncodedTable.of(TABLE, Origin.UNKNOWN)
            .bytes())).origin());
    }

    @Test
    void everyTruncationOfATableIsMalformed() {
        byte[] bytes = TableCodec.encode(TABLE, ORIGIN);
        for (int n = 0; n < bytes.length; n++) {
            ByteBuffer cut = ByteBuffer.wrap(bytes, 0, n);
            assertTrue(malformed(() -> TableCodec.read(cut)).startsWith("truncated"), "cut at " + n);
        }
    }

    @Test
    void tableBoundsAreCheckedBeforeAllocating() {
        assertEquals("descriptor table of 65 entries exceeds 64",
            malformed(() -> TableCodec.read(ByteBuffer.wrap(new byte[] {2, 0, 0, 65}))));
        assertEquals("descriptor address of 65535 bytes exceeds 1024",
            malformed(() -> TableCodec.read(ByteBuffer.wrap(new byte[] {2, 0, 0, 1, 1, 'x', -1, -1}))));
        assertEquals("descriptor table entry 1 has a malformed method stack 'X': expected names of [a-z0-9-] "
            + "like 'tcp' or 'lz4+aead/tcp'",
            malformed(() -> TableCodec.read(ByteBuffer.wrap(new byte[] {2, 0, 0, 1, 1, 'X', 0, 0}))));
        assertEquals("descriptor table of version 9, this context reads 2",
            malformed(() -> TableCodec.read(ByteBuffer.wrap(new byte[] {9, 0}))));
    }

    @Test
    void originBoundsAreChecked() {
        assertEquals("origin host of 31 bytes; a host identity has 32",
            malformed(() -> Origin.read(ByteBuffer.wrap(new byte[] {31}))));
        assertEquals("origin site of 65 bytes exceeds 64",
            malformed(() -> Origin.read(ByteBuffer.wrap(new byte[] {0, 65}))));
        assertEquals("origin site 'a b\\x0a' is not letters, digits, '.', '_' and '-'",
            malformed(() -> Origin.read(ByteBuffer.wrap(new byte[] {0, 4, 'a', ' ', 'b', '\n'}))));
        ByteBuffer written = ByteBuffer.allocate(ORIGIN.length());
        ORIGIN.write(written);
        assertEquals(ORIGIN, Origin.read(written.flip()));
        assertEquals(0, written.remaining());
    }

    @Test
    void anOriginSaysHowNearItsContextRuns() {
        HostIdentity here = HostIdentity.named("here");
        HostIdentity there = HostIdentity.named("there");
        assertEquals(PeerLocation.SAME_HOST, new Origin(here, "").seenFrom(new Origin(here, "")));
        assertEquals(PeerLocation.SAME_HOST, new Origin(here, "a").seenFrom(new Origin(here, "b")));
        assertEquals(PeerLocation.SAME_SITE, new Origin(there, "lab").seenFrom(new Origin(here, "lab")));
        assertEquals(PeerLocation.OTHER_SITE, new Origin(there, "").seenFrom(new Origin(here, "")),
            "a host is a site of its own");
        assertEquals(PeerLocation.OTHER_SITE, new Origin(there, "lab").seenFrom(new Origin(here, "")));
        assertEquals(PeerLocation.OTHER_SITE, Origin.UNKNOWN.seenFrom(new Origin(here, "lab")),
            "a peer that did not say counts as farthest");
    }

    @Test
    void startpointTextRoundTripsAndRejectsGarbage() {
        StartpointCodec.TargetRef[] targets = {
            new StartpointCodec.TargetRef(ContextId.random(), 5, EncodedTable.of(TABLE, ORIGIN)),
            new StartpointCodec.TargetRef(ContextId.random(), 6,
                EncodedTable.of(DescriptorTable.empty(), Origin.UNKNOWN))};
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
        byte[] bytes = Base64.getUrlDecoder().decode(text.substring(StartpointCodec.TEXT_PREFIX.length()));
        String longer = StartpointCodec.TEXT_PREFIX
            + Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(bytes, bytes.length + 1));
        assertEquals("startpoint text has 1 bytes after its last target",
            malformed(() -> StartpointCodec.fromText(longer)));
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
