package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.testkit.EmulatedWan;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench magpie} of the built distribution, briefly: two clusters of two ranks, each cluster a
 * network namespace, joined by emulated links of 10 ms and 1 MB/s; the links are measured, both
 * broadcasts run and every rank gets the data, no broadcast beats what the links allow (their delay,
 * and their rate for the bytes), the router carried the traffic, and nothing of the testbed is left.
 * Skipped, saying why, where namespaces, TUN devices or gcc are missing.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class WideAreaIT {

    private static final Duration RUN = Duration.ofMinutes(8);
    private static final Pattern ROW = Pattern.compile("^\\s+(\\d+) KiB\\s+([0-9.]+) \\(.*?\\)\\s+[0-9.]+\\s+([0-9.]+) \\(",
        Pattern.MULTILINE);

    @TempDir
    Path work;

    @Test
    void magpiesBroadcastsRunBetweenEmulatedClustersAndNoneBeatsWhatTheLinksAllow() throws Exception {
        String unavailable = EmulatedWan.unavailable();
        if (unavailable != null) {
            System.out.println("WideAreaIT skipped: " + unavailable);
        }
        Assumptions.assumeTrue(unavailable == null, () -> "the emulated testbed cannot be made here: " + unavailable);
        try (MpirunProcess run = MpirunProcess.shell(work, "java -jar \"$POLYLINK_HOME/lib/bench/polylink-bench.jar\" "
                + "magpie --clusters 2x2 --sizes 1k,32k --repeat 1 --warm-up 20 --plogp-max 4k --plogp-ms 5 "
                + "--delay-ms 10 --rate 1000000 --out out")) {
            assertEquals(0, run.awaitExit(RUN), run.output());
            String out = run.output();
            assertTrue(out.contains("2 clusters of 2 ranks; emulated links 10.0 ms one way, 1,000,000 bytes/s each way"),
                out);
            assertTrue(out.contains("measured (P-LogP of tcp between clusters): L "), out);
            Matcher row = ROW.matcher(out);
            int rows = 0;
            while (row.find()) {
                rows++;
                double kib = Double.parseDouble(row.group(1));
                double floor = 10 + kib * 1024 / 1_000_000 * 1000; // the delay, and the bytes at the rate, in ms
                for (int g = 2; g <= 3; g++) {
                    double ms = Double.parseDouble(row.group(g));
                    assertTrue(ms >= floor, kib + " KiB in " + ms + " ms, under the links' " + floor + " ms:\n" + out);
                }
            }
            assertEquals(2, rows, out);
            Matcher link = Pattern.compile("link (plh\\d+)t0 -> plh\\d+t1: (\\d+) packets").matcher(out);
            assertTrue(link.find() && Long.parseLong(link.group(2)) > 0, "the router carried the traffic:\n" + out);
            List<String> csv = Files.readAllLines(work.resolve("out/magpie.csv"));
            assertEquals(1 + 2 * 2, csv.size(), "a line per size and algorithm: " + csv);
            assertTrue(Files.readString(work.resolve("out/magpie.svg")).contains("<polyline"));
            Process list = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
            String namespaces = new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(list.waitFor(30, TimeUnit.SECONDS));
            assertFalse(namespaces.contains(link.group(1)), "the clusters are gone: " + namespaces);
        }
    }
}
