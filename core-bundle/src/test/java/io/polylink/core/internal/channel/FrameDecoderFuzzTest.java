package io.polylink.core.internal.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.polylink.core.internal.wire.FuzzFrames;
import io.polylink.core.internal.RepeatTransform;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Fuzzes the core's frame decoder ({@link ChannelReceiver#onFrame}) with what a peer could send: onFrame
 * must take or refuse every frame and never throw, handlers may only ever see
 * {@link io.polylink.MalformedMessageException}, and the context must keep serving afterwards.
 *
 * <p>Without {@code JAZZER_FUZZ} each method runs its inputs in
 * {@code src/test/resources/io/polylink/core/internal/channel/FrameDecoderFuzzTestInputs/<method>}; the
 * build also fuzzes each method briefly (see core-bundle's pom).
 */
class FrameDecoderFuzzTest {

    private FrameHarness harness;
    /** Contexts that require the {@code rle} transform of every peer. */
    private FrameHarness requiring;

    @BeforeEach
    void openContext() {
        harness = new FrameHarness();
        requiring = new FrameHarness(Map.of("require", RepeatTransform.NAME));
    }

    @AfterEach
    void closeContext() {
        harness.close();
        requiring.close();
    }

    /**
     * One frame, whatever it holds, plainly wrapped and in one other placement picked by its
     * length (all of them would cost the fuzzer half its speed): both must end alike.
     */
    @FuzzTest
    void singleFrame(byte[] frame) {
        FrameHarness.Outcome wrapped = harness.feed(List.of(frame), FrameHarness.Placement.WRAPPED);
        FrameHarness.Placement other = FrameHarness.Placement.of(1 + frame.length % 4);
        assertEquals(wrapped, harness.feed(List.of(frame), other),
            "decoding depended on where the frame sits (" + other + ")");
    }

    /**
     * Several frames on one connection, so tables, stack announcements and transformed frames come
     * before the data frames that use them and the handlers' decoders are reached.
     */
    @FuzzTest
    void frameSequence(byte[] input) {
        if (input.length == 0) {
            return;
        }
        harness.feed(FuzzFrames.records(input), FrameHarness.Placement.of(input[0]));
    }

    /**
     * Frame sequences to a context that requires a stack of its peers: announcements it refuses in
     * band, frames on refused stacks and on none, which it drops and counts and never runs.
     */
    @FuzzTest
    void frameSequenceRequiringAStack(byte[] input) {
        if (input.length == 0) {
            return;
        }
        requiring.feed(FuzzFrames.records(input), FrameHarness.Placement.of(input[0]));
    }
}
