package io.polylink.core.internal.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.polylink.MalformedMessageException;
import io.polylink.core.internal.wire.StartpointCodec.TargetRef;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.function.Supplier;

/**
 * Fuzzes the decoders of startpoints and descriptor tables: on any input they return a value or
 * throw {@link MalformedMessageException}, and whatever they return encodes back to the bytes it
 * came from and decodes again to an equal value.
 */
class StartpointFuzzTest {

    /** The tables a channel has received, for references; looked up by a scan the fuzzer can see. */
    private static final EncodedTable[] KNOWN = {FuzzFrames.LOCAL_TABLE, FuzzFrames.TCP_TABLE};

    /** A startpoint's text form, given both as the bytes behind the base64 and as raw text. */
    @FuzzTest
    void startpointText(byte[] input) {
        TargetRef[] fromBytes = decoded(() -> StartpointCodec.fromBytes(ByteBuffer.wrap(input)));
        String text = StartpointCodec.TEXT_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(input);
        TargetRef[] fromText = decoded(() -> StartpointCodec.fromText(text));
        if (fromBytes == null) {
            assertNull(fromText, "text decoded where its bytes did not");
        } else {
            assertNotNull(fromText, "bytes decoded where their text did not");
            assertSameTargets(fromBytes, fromText);
            String again = StartpointCodec.toText(fromBytes);
            assertEquals(text, again, "text form is not canonical");
            assertSameTargets(fromBytes, StartpointCodec.fromText(again));
        }
        for (String raw : new String[] {
            StartpointCodec.TEXT_PREFIX + new String(input, StandardCharsets.ISO_8859_1),
            new String(input, StandardCharsets.UTF_8)}) {
            TargetRef[] parsed = decoded(() -> StartpointCodec.fromText(raw));
            if (parsed != null) {
                assertSameTargets(parsed, StartpointCodec.fromText(StartpointCodec.toText(parsed)));
            }
        }
    }

    /** A startpoint's in-message form, against the tables of {@link #KNOWN}. */
    @FuzzTest
    void startpointReference(byte[] input) {
        ByteBuffer in = ByteBuffer.wrap(input);
        TargetRef[] targets = decoded(() -> StartpointCodec.readReference(in, StartpointFuzzTest::known));
        if (targets == null) {
            return;
        }
        ByteBuffer out = ByteBuffer.allocate(StartpointCodec.referenceLength(targets.length));
        StartpointCodec.writeReference(out, 0, targets);
        assertArrayEquals(Arrays.copyOf(input, in.position()), out.array(), "reference did not re-encode");
        assertSameTargets(targets, StartpointCodec.readReference(out.rewind(), StartpointFuzzTest::known));
    }

    /** A descriptor table with the origin of its context, as a TABLE frame or a startpoint's text carries it. */
    @FuzzTest
    void descriptorTable(byte[] input) {
        ByteBuffer in = ByteBuffer.wrap(input);
        EncodedTable table = decoded(() -> TableCodec.read(in));
        if (table == null) {
            return;
        }
        byte[] consumed = Arrays.copyOf(input, in.position());
        assertArrayEquals(consumed, table.bytes(), "the table kept other bytes than it was read from");
        byte[] encoded = TableCodec.encode(table.table(), table.origin());
        assertArrayEquals(consumed, encoded, "table did not re-encode to its bytes");
        ByteBuffer again = ByteBuffer.wrap(encoded);
        EncodedTable reread = TableCodec.read(again);
        assertEquals(table.table(), reread.table());
        assertEquals(table.origin(), reread.origin());
        assertEquals(0, again.remaining());
        assertEquals(EncodedTable.idOf(consumed, 0, consumed.length), table.id());
        assertEquals(table.id(), EncodedTable.of(table.table(), table.origin()).id());
    }

    private static EncodedTable known(long id) {
        for (EncodedTable t : KNOWN) {
            if (t.id() == id) {
                return t;
            }
        }
        return null;
    }

    /** @return the value, or {@code null} if the input was refused the documented way */
    private static <T> T decoded(Supplier<T> decoder) {
        try {
            return decoder.get();
        } catch (MalformedMessageException refused) {
            return null;
        }
    }

    /** Targets hold byte arrays, whose records compare by identity: compare what they mean. */
    private static void assertSameTargets(TargetRef[] expected, TargetRef[] actual) {
        assertEquals(expected.length, actual.length, "target count");
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i].context(), actual[i].context(), "context of target " + i);
            assertEquals(expected[i].endpoint(), actual[i].endpoint(), "endpoint of target " + i);
            assertEquals(expected[i].table().table(), actual[i].table().table(), "table of target " + i);
            assertArrayEquals(expected[i].table().bytes(), actual[i].table().bytes(), "table bytes of target " + i);
            assertEquals(expected[i].table().id(), actual[i].table().id(), "table id of target " + i);
        }
    }
}
