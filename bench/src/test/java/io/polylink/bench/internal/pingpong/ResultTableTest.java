package io.polylink.bench.internal.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultTableTest {

    private static final PingPongOptions OPTIONS = PingPongOptions.parse(new String[] {
        "--impl", "raw-nio,polylink:tcp", "--sizes", "16", "--repeat", "3"});

    /** A run where raw-nio takes {@code rawMicros} and polylink {@code polylinkMicros} per round trip. */
    private static List<SizeResult> run(long rawMicros, long polylinkMicros) {
        return List.of(new SizeResult("raw-nio", 16, 1000, rawMicros * 1000, rawMicros * 2000, rawMicros * 3000,
                1000, 1_000_000),
            new SizeResult("polylink:tcp", 16, 1000, polylinkMicros * 1000, polylinkMicros * 2000,
                polylinkMicros * 3000, 1000, 2_000_000));
    }

    private static String table(List<List<SizeResult>> runs) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ResultTable.table(runs, OPTIONS, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }

    @Test
    void aTargetIsJudgedByTheMedianOfEachRunsOwnRatio() {
        // Ratios 1.00, 1.05 and 2.00: median 1.05, met. The figures' own medians (20 us over
        // 20 us) would say 1.00, and a ratio of medians across runs would mix a fast run's
        // baseline with a slow run's measurement.
        String table = table(List.of(run(20, 20), run(20, 21), run(10, 20)));
        assertTrue(table.contains("16 B    median round trip <= 1.10 x raw:        1.05 x  met  (1.00-2.00; met in 2 of 3 runs)"),
            table);
        assertTrue(table.contains("16 B    polylink:tcp         1000     20.00     40.00      8.0     1.05"), table);
    }

    @Test
    void oneRunPrintsItsFiguresWithoutARange() {
        String table = table(List.of(run(10, 12)));
        assertTrue(table.contains("16 B    median round trip <= 1.10 x raw:        1.20 x  MISSED\n"), table);
        assertFalse(table.contains("each run"), table);
    }

    @Test
    void severalRunsEndWithEachRunsFiguresInTheOrderRun() {
        List<SizeResult> failed = List.of(run(30, 30).get(0));
        String table = table(List.of(run(20, 20), run(20, 21), failed));
        assertTrue(table.endsWith("""
            each run, in order: round trip p50 us | MB/s ('-': the run failed)
            16 B    raw-nio                20.00     20.00     30.00  |      16.0      16.0      16.0
            16 B    polylink:tcp           20.00     21.00         -  |       8.0       8.0         -
            """), table);
    }

    @Test
    void csvOverSeveralRunsGivesEachFiguresMedianOncePerImplementationAndSize() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ResultTable.csv(List.of(run(20, 20), run(20, 21), run(10, 30)), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals("""
            impl,size,count,rtt_p50_us,rtt_p99_us,mb_per_s
            raw-nio,16,1000,20.00,40.00,16.0
            polylink:tcp,16,1000,21.00,42.00,8.0
            """, bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"));
    }
}
