package io.polylink.method.compress.internal;

import io.polylink.testkit.RecordingSource;

import io.polylink.testkit.SampleData;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.ContextId;
import io.polylink.MalformedMessageException;
import io.polylink.MessageTooLargeException;
import io.polylink.spi.PeerLocation;
import io.polylink.spi.TransformSession;
import java.nio.ByteBuffer;
import java.util.Map;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.Test;

/** One lz4 session's encoding and decoding, without a connection. */
class Lz4SessionTest {

    private static final int BOUND = 1 << 20;
    private static final ByteBuffer HEADER = ByteBuffer.allocate(8);
    private final ContextId self = ContextId.random();
    private final ContextId other = ContextId.random();
    private final TransformSession session = new Lz4Transform(Map.of()).open(FakePeer.between(self, other));

    private ByteBuffer encode(TransformSession s, byte[] input) {
        ByteBuffer encoded = s.encode(HEADER.duplicate(), ByteBuffer.wrap(input), new RecordingSource(BOUND + 4096));
        ByteBuffer copy = ByteBuffer.allocate(encoded.remaining()).put(encoded).flip();
        return copy;
    }

    private byte[] decode(TransformSession s, ByteBuffer encoded) {
        ByteBuffer decoded = s.decode(HEADER.duplicate(), encoded.duplicate(), new RecordingSource(BOUND));
        byte[] out = new byte[decoded.remaining()];
        decoded.get(out);
        return out;
    }

    /** A frame built by hand: flag 1, the given declared length, then the block. */
    private static ByteBuffer compressedFrame(long declared, byte[] block) {
        return ByteBuffer.allocate(5 + block.length).put((byte) 1).putInt((int) declared).put(block).flip();
    }

    private void assertStillWorks() {
        byte[] records = SampleData.records(4096, 99);
        assertArrayEquals(records, decode(session, encode(session, records)), "a good payload after a bad one");
    }

    @Test
    void compressibleRecordsShrinkAndComeBackIntact() {
        byte[] records = SampleData.records(64 * 1024, 1);

        ByteBuffer encoded = encode(session, records);

        assertEquals(Lz4Payload.COMPRESSED, encoded.get(0));
        assertEquals(records.length, encoded.getInt(1));
        assertTrue(encoded.remaining() < records.length / 2, "records shrink to " + encoded.remaining());
        assertArrayEquals(records, decode(session, encoded));
        System.out.printf("lz4 on 64 KiB of sample records: %d bytes (%.2f)%n", encoded.remaining(),
            (double) encoded.remaining() / records.length);
    }

    @Test
    void incompressibleDataIsSentStoredBehindOneByte() {
        byte[] noise = SampleData.random(4096, 2);

        ByteBuffer encoded = encode(session, noise);

        assertEquals(Lz4Payload.STORED, encoded.get(0));
        assertEquals(noise.length + 1, encoded.remaining());
        assertArrayEquals(noise, decode(session, encoded));
    }

    @Test
    void payloadsBelowTheThresholdAreStoredEvenWhenTheyWouldShrink() {
        byte[] zeros = new byte[63];
        byte[] more = new byte[64];

        assertEquals(Lz4Payload.STORED, encode(session, zeros).get(0));
        assertEquals(Lz4Payload.COMPRESSED, encode(session, more).get(0));
        TransformSession lax = new Lz4Transform(Map.of("minSize", "0")).open(FakePeer.between(self, other));
        assertEquals(Lz4Payload.COMPRESSED, encode(lax, new byte[32]).get(0));
        assertArrayEquals(new byte[0], decode(lax, encode(lax, new byte[0])));
    }

    @Test
    void noPayloadGrowsByMoreThanItsFlagByte() {
        for (int length = 0; length < 3000; length += 7) {
            for (byte[] input : new byte[][] {SampleData.random(length, length), SampleData.records(length, length)}) {
                ByteBuffer encoded = encode(session, input);
                assertTrue(encoded.remaining() <= length + 1, length + " bytes became " + encoded.remaining());
                assertArrayEquals(input, decode(session, encoded), "length " + length);
            }
        }
    }

    @Test
    void scopeNeverAndOtherHostWithinOneContextStoreEverything() {
        byte[] zeros = new byte[4096];
        TransformSession never = new Lz4Transform(Map.of("scope", "never")).open(FakePeer.between(self, other));
        TransformSession sameContext = new Lz4Transform(Map.of("scope", "other-host")).open(FakePeer.between(self, self));
        TransformSession otherContext = new Lz4Transform(Map.of("scope", "other-host")).open(FakePeer.between(self, other));

        assertEquals(Lz4Payload.STORED, encode(never, zeros).get(0));
        assertEquals(Lz4Payload.STORED, encode(sameContext, zeros).get(0));
        assertEquals(Lz4Payload.COMPRESSED, encode(otherContext, zeros).get(0));
        assertArrayEquals(zeros, decode(session, encode(never, zeros)), "any session decodes any scope's output");
    }

    @Test
    void otherHostCompressesOnlyForPeersOnAnotherHostAndOtherSiteOnlyForPeersOnAnotherSite() {
        byte[] zeros = new byte[4096];
        Lz4Transform otherHost = new Lz4Transform(Map.of("scope", "other-host"));
        Lz4Transform otherSite = new Lz4Transform(Map.of("scope", "other-site"));

        assertEquals(Lz4Payload.STORED, encode(otherHost.open(FakePeer.at(PeerLocation.SAME_HOST)), zeros).get(0));
        assertEquals(Lz4Payload.COMPRESSED, encode(otherHost.open(FakePeer.at(PeerLocation.SAME_SITE)), zeros).get(0));
        assertEquals(Lz4Payload.COMPRESSED, encode(otherHost.open(FakePeer.at(PeerLocation.OTHER_SITE)), zeros).get(0));
        assertEquals(Lz4Payload.STORED, encode(otherSite.open(FakePeer.at(PeerLocation.SAME_HOST)), zeros).get(0));
        assertEquals(Lz4Payload.STORED, encode(otherSite.open(FakePeer.at(PeerLocation.SAME_SITE)), zeros).get(0));
        assertEquals(Lz4Payload.COMPRESSED, encode(otherSite.open(FakePeer.at(PeerLocation.OTHER_SITE)), zeros).get(0));
    }

    @Test
    void aKibibyteDeclaringTwoGibibytesIsRefusedBeforeAnythingIsAllocated() {
        byte[] block = new byte[1024];
        for (long declared : new long[] {1L << 31, (1L << 31) - 1, 0xFFFF_FFFFL, BOUND + 1}) {
            RecordingSource source = new RecordingSource(BOUND);

            MessageTooLargeException e = assertThrows(MessageTooLargeException.class,
                () -> session.decode(HEADER.duplicate(), compressedFrame(declared, block), source));

            assertEquals(0, source.allocatedBytes(), "bytes allocated for a declared " + declared);
            assertTrue(e.getMessage().contains(Long.toString(declared)), e.getMessage());
        }
        assertStillWorks();
    }

    @Test
    void aBlockThatYieldsMoreOrFewerBytesThanDeclaredIsRefused() {
        byte[] records = SampleData.records(1000, 3);
        byte[] block = LZ4Factory.safeInstance().fastCompressor().compress(records);

        MalformedMessageException more = assertThrows(MalformedMessageException.class,
            () -> decode(session, compressedFrame(999, block)));
        MalformedMessageException fewer = assertThrows(MalformedMessageException.class,
            () -> decode(session, compressedFrame(1001, block)));

        assertTrue(more.getMessage().contains("is corrupt or decompresses to more than the declared 999 bytes"),
            more.getMessage());
        assertTrue(fewer.getMessage().contains("decompresses to 1000 bytes but declares 1001"), fewer.getMessage());
        assertTrue(fewer.getMessage().contains("context " + other + " over test"), "names the peer: " + fewer.getMessage());
        assertArrayEquals(records, decode(session, compressedFrame(1000, block)));
        assertStillWorks();
    }

    @Test
    void emptyTruncatedAndUnknownPayloadsAreMalformed() {
        String empty = assertThrows(MalformedMessageException.class,
            () -> decode(session, ByteBuffer.allocate(0))).getMessage();
        String truncated = assertThrows(MalformedMessageException.class,
            () -> decode(session, ByteBuffer.wrap(new byte[] {1, 0, 0}))).getMessage();
        String unknown = assertThrows(MalformedMessageException.class,
            () -> decode(session, ByteBuffer.wrap(new byte[] {7, 0, 0, 0, 0}))).getMessage();
        String garbage = assertThrows(MalformedMessageException.class,
            () -> decode(session, compressedFrame(100, new byte[] {(byte) 0xF0, 1, 2}))).getMessage();

        assertTrue(empty.contains("is empty; it must begin with a 1-byte flag"), empty);
        assertTrue(truncated.contains("too short for the flag and 4-byte length"), truncated);
        assertTrue(unknown.contains("has flag 7; only 0 (stored) and 1 (compressed) exist"), unknown);
        assertTrue(garbage.contains("is corrupt"), garbage);
        assertStillWorks();
    }

    @Test
    void aStoredPayloadDecodesToAViewWithoutCopying() {
        RecordingSource source = new RecordingSource(BOUND);
        ByteBuffer stored = ByteBuffer.wrap(new byte[] {0, 'h', 'i'});

        ByteBuffer decoded = session.decode(HEADER.duplicate(), stored, source);

        assertEquals(0, source.allocatedBytes());
        assertEquals(0, decoded.position());
        assertEquals(2, decoded.remaining());
        assertEquals(3, stored.position(), "the input is consumed");
    }

    @Test
    void worstCaseRoomOverTheBoundFallsBackToStored() {
        byte[] zeros = new byte[1000];
        RecordingSource tight = new RecordingSource(1001);

        ByteBuffer encoded = session.encode(HEADER.duplicate(), ByteBuffer.wrap(zeros), tight);

        assertEquals(Lz4Payload.STORED, encoded.get(0));
        assertEquals(1001, encoded.remaining());
    }

    @Test
    void badSettingsAreRefusedByName() {
        String minSize = assertThrows(IllegalArgumentException.class,
            () -> new Lz4Transform(Map.of("minSize", "lots"))).getMessage();
        String negative = assertThrows(IllegalArgumentException.class,
            () -> new Lz4Transform(Map.of("minSize", -1))).getMessage();
        String scope = assertThrows(IllegalArgumentException.class,
            () -> new Lz4Transform(Map.of("scope", "sometimes"))).getMessage();

        assertEquals("lz4 property minSize='lots' is not an integer", minSize);
        assertTrue(negative.startsWith("lz4 minSize -1 is negative"), negative);
        assertEquals("lz4 scope 'sometimes' is not one of [always, other-host, other-site, never]", scope);
    }
}
