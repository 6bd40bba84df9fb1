package io.polylink.method.compress.internal;

import io.polylink.testkit.RecordingSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.polylink.ContextId;
import io.polylink.MalformedMessageException;
import io.polylink.MessageTooLargeException;
import io.polylink.spi.TransformSession;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * Fuzz targets for the lz4 transform. In the normal test run they replay the seeds under
 * {@code Lz4FuzzTestInputs/}; with {@code JAZZER_FUZZ=1} they fuzz, and Jazzer adds what it
 * finds there as regression inputs.
 */
class Lz4FuzzTest {

    private static final int BOUND = 1 << 16;
    private final TransformSession session =
        new Lz4Transform(Map.of("minSize", "0")).open(FakePeer.between(ContextId.random(), ContextId.random()));

    /** Bytes from a peer either decode within the bound or are refused with the documented errors. */
    @FuzzTest(maxDuration = "30s")
    void decodingBytesFromAPeerOnlyEverRefusesWithTheDocumentedErrors(byte[] input) {
        RecordingSource source = new RecordingSource(BOUND);
        ByteBuffer wire = ByteBuffer.wrap(input);
        try {
            ByteBuffer out = session.decode(ByteBuffer.allocate(8), wire, source);
            assertTrue(out.position() == 0 && out.remaining() <= BOUND, out::toString);
            assertTrue(!wire.hasRemaining(), "the input is consumed");
        } catch (MalformedMessageException | MessageTooLargeException refused) {
            // the two errors a bad payload may cause
        }
        assertTrue(source.allocatedBytes() <= BOUND, () -> source.allocatedBytes() + " bytes allocated");
    }

    /** Whatever the input, encoding then decoding gives it back, at most one byte longer on the wire. */
    @FuzzTest(maxDuration = "30s")
    void encodingThenDecodingGivesTheInputBack(byte[] input) {
        ByteBuffer encoded = session.encode(ByteBuffer.allocate(8), ByteBuffer.wrap(input), new RecordingSource(BOUND * 2));
        assertTrue(encoded.remaining() <= input.length + 1, () -> input.length + " bytes grew to " + encoded.remaining());
        ByteBuffer decoded = session.decode(ByteBuffer.allocate(8), encoded, new RecordingSource(BOUND * 2));
        byte[] out = new byte[decoded.remaining()];
        decoded.get(out);
        assertArrayEquals(input, out);
    }
}
