package io.polylink.core.internal.channel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.core.internal.RepeatTransform;
import io.polylink.core.internal.wire.FuzzFrames;
import io.polylink.spi.BufferSource;
import io.polylink.spi.Transform;
import io.polylink.spi.TransformPeer;
import io.polylink.spi.TransformSession;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The fuzzing setup itself: the seeds must stay real frames (or the fuzzer quietly starts from
 * garbage after a wire format change), and the harness must notice what it is there to notice.
 */
class FuzzHarnessTest {

    private final FrameHarness harness = new FrameHarness();

    @AfterEach
    void closeContext() {
        harness.close();
    }

    @Test
    void committedSeedsAreTheGeneratedOnes() throws IOException {
        for (Map.Entry<String, Map<String, byte[]>> directory : FuzzSeeds.all(harness.endpointId()).entrySet()) {
            for (Map.Entry<String, byte[]> seed : directory.getValue().entrySet()) {
                String resource = "/" + directory.getKey() + "/" + seed.getKey();
                try (InputStream in = getClass().getResourceAsStream(resource)) {
                    assertNotNull(in, resource + " is missing: run FuzzSeeds.main");
                    assertArrayEquals(seed.getValue(), in.readAllBytes(), resource + " is stale: run FuzzSeeds.main");
                }
            }
        }
    }

    @Test
    void frameSeedsReachTheHandlersAndTheirDecoders() {
        Map<String, byte[]> sequences = FuzzSeeds.all(harness.endpointId())
            .get(FuzzSeeds.FRAMES + "frameSequence");

        FrameHarness.Outcome startpoints = feed(sequences.get("seed-tables-then-startpoints"));
        assertEquals(new FrameHarness.Outcome(3, false, 1, 0, 1), startpoints);

        FrameHarness.Outcome transformed = feed(sequences.get("seed-stack-then-transformed"));
        assertEquals(new FrameHarness.Outcome(2, false, 1, 0, 0), transformed);

        FrameHarness.Outcome executor = feed(sequences.get("seed-transformed-table-then-executor"));
        assertEquals(new FrameHarness.Outcome(3, false, 1, 0, 1), executor);

        FrameHarness.Outcome stale = feed(sequences.get("seed-reset-then-stale-startpoint"));
        assertEquals(new FrameHarness.Outcome(3, false, 1, 1, 0), stale);

        // A stack with a transform not installed here is refused in band: its frame is dropped,
        // never run, and the connection stays for the peer's other stacks.
        FrameHarness.Outcome uninstalled = feed(sequences.get("seed-uninstalled-transform"));
        assertEquals(new FrameHarness.Outcome(2, false, 0, 0, 0), uninstalled);

        FrameHarness.Outcome flow = feed(sequences.get("seed-flow-with-a-copy"));
        assertEquals(new FrameHarness.Outcome(4, false, 2, 0, 0), flow, "the copy of RSR 1 is not run again");

        FrameHarness.Outcome longStack = feed(sequences.get("seed-long-stack-announcement"));
        assertEquals(0, longStack.accepted());
        assertTrue(longStack.refused());
    }

    @Test
    void aContextRequiringAStackRunsNothingOnOthersAndKeepsTheConnection() {
        try (FrameHarness requiring = new FrameHarness(Map.of("require", RepeatTransform.NAME))) {
            Map<String, byte[]> sequences = FuzzSeeds.all(requiring.endpointId())
                .get(FuzzSeeds.FRAMES + "frameSequenceRequiringAStack");

            byte[] plainStack = sequences.get("seed-plain-stack-refused");
            assertEquals(new FrameHarness.Outcome(4, false, 1, 0, 0),
                requiring.feed(FuzzFrames.records(plainStack), FrameHarness.Placement.of(plainStack[0])),
                "only the script on the rle stack runs");
            byte[] noStack = sequences.get("seed-no-stack-refused");
            assertEquals(new FrameHarness.Outcome(4, false, 1, 0, 0),
                requiring.feed(FuzzFrames.records(noStack), FrameHarness.Placement.of(noStack[0])));
        }
    }

    @Test
    void everySingleFrameSeedIsTaken() {
        Map<String, byte[]> frames = FuzzSeeds.all(harness.endpointId())
            .get(FuzzSeeds.FRAMES + "singleFrame");
        for (Map.Entry<String, byte[]> seed : frames.entrySet()) {
            FrameHarness.Outcome outcome = harness.feed(List.of(seed.getValue()), FrameHarness.Placement.WRAPPED);
            assertFalse(outcome.refused(), seed.getKey() + " was refused");
            assertEquals(0, outcome.malformedReads(), seed.getKey() + " did not read cleanly");
        }
    }

    @Test
    void decoderFailuresBehindTheCatchAllAreReported() {
        try (FrameHarness broken = new FrameHarness(new BrokenTransform())) {
            List<byte[]> frames = List.of(FuzzFrames.stackAnnouncement(1, BrokenTransform.NAME),
                FuzzFrames.frame(0, 1, FrameHarness.SCRIPT, FrameHarness.ENDPOINT, new byte[] {1}));
            AssertionError reported = assertThrows(AssertionError.class,
                () -> broken.feed(frames, FrameHarness.Placement.WRAPPED));
            assertTrue(reported.getMessage().contains(FrameHarness.DECODER_FAILURE), reported.getMessage());
        }
    }

    /** Fails the way a bug would: with an exception no decoder documents. */
    private static final class BrokenTransform implements Transform {
        static final String NAME = "broken";

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public TransformSession open(TransformPeer peer) {
            return new TransformSession() {
                @Override
                public ByteBuffer encode(ByteBuffer header, ByteBuffer input, BufferSource output) {
                    return input;
                }

                @Override
                public ByteBuffer decode(ByteBuffer header, ByteBuffer input, BufferSource output) {
                    throw new IndexOutOfBoundsException("a decoder bug");
                }

                @Override
                public void close() {}
            };
        }
    }

    private FrameHarness.Outcome feed(byte[] input) {
        return harness.feed(FuzzFrames.records(input), FrameHarness.Placement.of(input[0]));
    }
}
