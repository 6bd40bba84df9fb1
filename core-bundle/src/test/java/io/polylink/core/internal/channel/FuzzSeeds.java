package io.polylink.core.internal.channel;

import io.polylink.core.internal.RepeatTransform;
import io.polylink.core.internal.wire.ControlFrame;
import io.polylink.core.internal.wire.FrameHeader;
import io.polylink.core.internal.wire.FuzzFrames;
import io.polylink.core.internal.wire.TableCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The valid inputs the fuzz targets start from: real frames, tables and startpoints, so the
 * fuzzer begins past the header checks. Run {@link #main} to rewrite them after a wire format
 * change; {@link FuzzSeedsTest} fails until then.
 */
final class FuzzSeeds {

    /** Jazzer's layout: {@code <TestClass>Inputs/<method>/} next to the test class. */
    static final String FRAMES = "io/polylink/core/internal/channel/FrameDecoderFuzzTestInputs/";
    static final String CODECS = "io/polylink/core/internal/wire/StartpointFuzzTestInputs/";

    private FuzzSeeds() {}

    /** @return seed bytes by file name, by directory relative to the test resources root */
    static Map<String, Map<String, byte[]>> all(int endpoint) {
        Map<String, Map<String, byte[]>> all = new LinkedHashMap<>();
        all.put(FRAMES + "singleFrame", singleFrames(endpoint));
        all.put(FRAMES + "frameSequence", frameSequences(endpoint));
        all.put(FRAMES + "frameSequenceRequiringAStack", requiringSequences(endpoint));
        all.put(CODECS + "startpointText", Map.of(
            "seed-one-target", FuzzFrames.textBytes(7, FuzzFrames.LOCAL_TABLE),
            "seed-two-targets", FuzzFrames.textBytes(7, FuzzFrames.TCP_TABLE, FuzzFrames.LOCAL_TABLE)));
        all.put(CODECS + "startpointReference", Map.of(
            "seed-one-target", FuzzFrames.reference(7, FuzzFrames.LOCAL_TABLE),
            "seed-three-targets", FuzzFrames.reference(7, FuzzFrames.TCP_TABLE, FuzzFrames.LOCAL_TABLE,
                FuzzFrames.TCP_TABLE)));
        all.put(CODECS + "descriptorTable", Map.of(
            "seed-empty", new byte[] {TableCodec.VERSION, 0, 0, 0},
            "seed-local", FuzzFrames.LOCAL_TABLE.bytes(),
            "seed-three-entries", FuzzFrames.TCP_TABLE.bytes()));
        return all;
    }

    /** A script that touches every reader except startpoints. */
    static byte[] plainScript() {
        return new FuzzFrames.Script().integer(42).longValue(-1L).string("h\u00e9llo, \u4e16\u754c")
            .bytes(new byte[] {1, 2, 3}).raw(new byte[] {9, 8, 7, 6})
            .op(FuzzFrames.OP_BOOLEAN, new byte[] {1}).op(FuzzFrames.OP_SHORT, new byte[] {0, 5})
            .op(FuzzFrames.OP_DOUBLE, new byte[8]).op(FuzzFrames.OP_FLOAT, new byte[4])
            .op(FuzzFrames.OP_BYTE, new byte[] {-1}).toBytes();
    }

    private static Map<String, byte[]> singleFrames(int endpoint) {
        Map<String, byte[]> seeds = new LinkedHashMap<>();
        seeds.put("seed-data-script", FuzzFrames.data(endpoint, FrameHarness.SCRIPT, plainScript()));
        seeds.put("seed-data-executor", FuzzFrames.data(endpoint, FrameHarness.SCRIPT_LATER, plainScript()));
        seeds.put("seed-data-failing-handler", FuzzFrames.data(endpoint, FrameHarness.FAILING, new byte[0]));
        seeds.put("seed-data-unknown-handler", FuzzFrames.data(endpoint, 99, new byte[] {3, 0, 0, 0, 1}));
        seeds.put("seed-control-table", FuzzFrames.control(ControlFrame.TABLE, FuzzFrames.TCP_TABLE.bytes()));
        seeds.put("seed-control-stack", FuzzFrames.stackAnnouncement(1, RepeatTransform.NAME));
        seeds.put("seed-control-reset", FuzzFrames.control(ControlFrame.TABLE_RESET, new byte[0]));
        return seeds;
    }

    private static Map<String, byte[]> frameSequences(int endpoint) {
        byte[] startpoints = new FuzzFrames.Script()
            .startpoint(FuzzFrames.reference(7, FuzzFrames.TCP_TABLE, FuzzFrames.LOCAL_TABLE))
            .string("after the startpoint").toBytes();
        byte[] tcpStartpoint = new FuzzFrames.Script()
            .startpoint(FuzzFrames.reference(11, FuzzFrames.TCP_TABLE)).integer(5).toBytes();
        byte[] localStartpoint = new FuzzFrames.Script()
            .startpoint(FuzzFrames.reference(3, FuzzFrames.LOCAL_TABLE)).toBytes();
        Map<String, byte[]> seeds = new LinkedHashMap<>();
        seeds.put("seed-tables-then-startpoints", FuzzFrames.sequence(0,
            FuzzFrames.control(ControlFrame.TABLE, FuzzFrames.TCP_TABLE.bytes()),
            FuzzFrames.control(ControlFrame.TABLE, FuzzFrames.LOCAL_TABLE.bytes()),
            FuzzFrames.data(endpoint, FrameHarness.SCRIPT, startpoints)));
        seeds.put("seed-stack-then-transformed", FuzzFrames.sequence(1,
            FuzzFrames.stackAnnouncement(1, RepeatTransform.NAME),
            FuzzFrames.frame(0, 1, FrameHarness.SCRIPT, endpoint, RepeatTransform.encode(plainScript()))));
        seeds.put("seed-transformed-table-then-executor", FuzzFrames.sequence(2,
            FuzzFrames.stackAnnouncement(1, RepeatTransform.NAME),
            FuzzFrames.frame(FrameHeader.FLAG_CONTROL, 1, ControlFrame.TABLE.code(), 0,
                RepeatTransform.encode(FuzzFrames.TCP_TABLE.bytes())),
            FuzzFrames.frame(0, 1, FrameHarness.SCRIPT_LATER, endpoint, RepeatTransform.encode(tcpStartpoint))));
        seeds.put("seed-reset-then-stale-startpoint", FuzzFrames.sequence(3,
            FuzzFrames.control(ControlFrame.TABLE, FuzzFrames.LOCAL_TABLE.bytes()),
            FuzzFrames.control(ControlFrame.TABLE_RESET, new byte[0]),
            FuzzFrames.data(endpoint, FrameHarness.SCRIPT, localStartpoint)));
        seeds.put("seed-uninstalled-transform", FuzzFrames.sequence(4,
            FuzzFrames.stackAnnouncement(2, "lz4+" + RepeatTransform.NAME),
            FuzzFrames.frame(0, 2, FrameHarness.SCRIPT, endpoint, plainScript())));
        int sequenced = FrameHeader.FLAG_SEQUENCED;
        seeds.put("seed-flow-with-a-copy", FuzzFrames.sequence(5,
            FuzzFrames.stackAnnouncement(1, ""),
            FuzzFrames.frame(sequenced, 1, FrameHarness.SCRIPT, endpoint, 1, plainScript()),
            FuzzFrames.frame(sequenced | FrameHeader.FLAG_ACK_REQUEST, 1, FrameHarness.SCRIPT, endpoint, 1,
                plainScript()),
            FuzzFrames.frame(sequenced, 1, FrameHarness.SCRIPT, endpoint, 2, plainScript())));
        seeds.put("seed-long-stack-announcement", FuzzFrames.sequence(0,
            FuzzFrames.stackAnnouncement(3, "a" + "+a".repeat(1500)),
            FuzzFrames.frame(0, 3, FrameHarness.SCRIPT, endpoint, plainScript())));
        return seeds;
    }

    /** For a context that requires {@code rle}: what it refuses, then what it takes. */
    private static Map<String, byte[]> requiringSequences(int endpoint) {
        Map<String, byte[]> seeds = new LinkedHashMap<>(frameSequences(endpoint));
        byte[] rleScript = RepeatTransform.encode(plainScript());
        seeds.put("seed-plain-stack-refused", FuzzFrames.sequence(1,
            FuzzFrames.stackAnnouncement(1, ""),
            FuzzFrames.frame(FrameHeader.FLAG_SEQUENCED, 1, FrameHarness.SCRIPT, endpoint, 1, plainScript()),
            FuzzFrames.stackAnnouncement(2, RepeatTransform.NAME),
            FuzzFrames.frame(0, 2, FrameHarness.SCRIPT, endpoint, rleScript)));
        seeds.put("seed-no-stack-refused", FuzzFrames.sequence(2,
            FuzzFrames.data(endpoint, FrameHarness.SCRIPT, plainScript()),
            FuzzFrames.data(endpoint, FrameHarness.SCRIPT, plainScript()),
            FuzzFrames.stackAnnouncement(1, RepeatTransform.NAME),
            FuzzFrames.frame(0, 1, FrameHarness.SCRIPT, endpoint, rleScript)));
        return seeds;
    }

    /** Writes the seeds under the test resources root given as the only argument. */
    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : "src/test/resources");
        for (Map.Entry<String, Map<String, byte[]>> directory : all(FrameHarness.ENDPOINT).entrySet()) {
            Path dir = Files.createDirectories(root.resolve(directory.getKey()));
            for (Map.Entry<String, byte[]> seed : directory.getValue().entrySet()) {
                Files.write(dir.resolve(seed.getKey()), seed.getValue());
            }
        }
    }
}
