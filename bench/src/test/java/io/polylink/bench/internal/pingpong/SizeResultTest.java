package io.polylink.bench.internal.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class SizeResultTest {

    private static final SizeResult RESULT = new SizeResult("polylink:tcp", 1024, 20000, 12_345, 40_100, 900_000,
        400_000, 250_000_000);

    @Test
    void aResultLineReadsBackTheSame() {
        assertEquals(RESULT, SizeResult.fromLine(RESULT.toLine()));
        assertThrows(IllegalArgumentException.class, () -> SizeResult.fromLine("result raw-nio 16"));
        assertThrows(IllegalArgumentException.class, () -> SizeResult.fromLine("done"));
    }

    @Test
    void bandwidthIsPayloadBytesStreamedPerSecondInDecimalMegabytes() {
        // 1024 B x 400,000 in 0.25 s = 1,638.4 MB/s
        assertEquals(1638.4, RESULT.mbPerSecond(), 1e-9);
    }

    @Test
    void csvIsTheHeaderAndOneRowPerResultInMicroseconds() {
        SizeResult raw = new SizeResult("raw-nio", 16, 500, 9_999, 20_005, 30_000, 1000, 1_000_000);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ResultTable.csv(List.of(List.of(raw, RESULT)), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals("""
            impl,size,count,rtt_p50_us,rtt_p99_us,mb_per_s
            raw-nio,16,500,10.00,20.01,16.0
            polylink:tcp,1024,20000,12.35,40.10,1638.4
            """, bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"));
    }

    @Test
    void sizesPrintInTheLargestExactUnit() {
        assertEquals("16 B", ResultTable.size(16));
        assertEquals("1 KiB", ResultTable.size(1024));
        assertEquals("1500 B", ResultTable.size(1500));
        assertEquals("64 KiB", ResultTable.size(65536));
        assertEquals("1 MiB", ResultTable.size(1 << 20));
    }
}
