package io.polylink.bench.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.bench.internal.magpie.MagpieCommand;
import io.polylink.bench.internal.pingpong.MultiCommand;
import io.polylink.bench.internal.pingpong.PingPongCommand;
import io.polylink.bench.internal.swap.SwapCommand;
import io.polylink.bench.internal.transforms.TransformsCommand;
import io.polylink.testkit.Await;
import io.polylink.testkit.EmulatedWan;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs each command the bench added with tiny counts, so none can rot unnoticed: every
 * implementation starts, talks and stops, and the CSV has its header and one row per measurement.
 * Figures are not checked; nothing here is a benchmark.
 */
class CommandsSmokeTest {

    private interface Command {
        int run(String[] args, PrintStream out) throws Exception;
    }

    private static List<String> csv(Command command, String... args) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            status = command.run(args, out);
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, "exit status; output:\n" + text);
        return text.lines().toList();
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void pingpongRunsTheShmPeersAndTheTransformStacks() throws Exception {
        Set<Path> before = benchFiles();
        List<String> lines = csv(PingPongCommand::run, "--impl", "raw-shm,aeron-ipc,polylink:shm,polylink:lz4/tcp,polylink:aead/tcp",
            "--sizes", "16,64k", "--count", "5", "--warmup", "0", "--csv", "--timeout", "120");
        assertEquals("impl,size,count,rtt_p50_us,rtt_p99_us,mb_per_s", lines.get(0));
        assertEquals(1 + 5 * 2, lines.size(), String.join("\n", lines));
        assertNoneLeftBut(before);
    }

    /**
     * Every pair up at once, each run measuring each in turn: every implementation has a figure
     * in every run, and raw-nio's idle server, blocked in read while the others are measured,
     * still answers when its turn comes again.
     */
    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void pingpongInterleavedMeasuresEveryImplementationInEveryRun() throws Exception {
        List<String> impls = List.of("raw-nio", "netty-nio", "polylink:tcp");
        List<String> lines = csv(PingPongCommand::run, "--impl", String.join(",", impls), "--interleave",
            "--repeat", "2", "--idle", "spin-then-block", "--sizes", "16,64k", "--count", "5", "--warmup", "0",
            "--timeout", "120");
        int start = lines.indexOf(lines.stream().filter(l -> l.startsWith("each run, in order")).findFirst()
            .orElseThrow(() -> new AssertionError(String.join("\n", lines))));
        List<String> eachRun = lines.subList(start + 1, lines.size()).stream().filter(l -> !l.isBlank()).toList();
        assertEquals(impls.size() * 2, eachRun.size(), String.join("\n", lines));
        for (String row : eachRun) {
            String[] halves = row.split("\\|");
            List<String> p50s = List.of(halves[0].trim().split(" +")); // size, unit, impl, then one per run
            p50s = p50s.subList(3, p50s.size());
            List<String> mbs = List.of(halves[1].trim().split(" +"));
            assertEquals(2, p50s.size(), row);
            assertEquals(2, mbs.size(), row);
            assertTrue(p50s.stream().noneMatch("-"::equals) && mbs.stream().noneMatch("-"::equals), row);
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void multiRunsItsThreeCases() throws Exception {
        Set<Path> before = benchFiles();
        List<String> lines = csv(MultiCommand::run, "--sizes", "16", "--count", "5", "--warmup", "0", "--repeat", "1",
            "--csv", "--timeout", "120");
        assertEquals("case,size,count,rtt_p50_us,rtt_p99_us,p50_x_alone,p99_x_alone", lines.get(0));
        assertEquals(List.of("alone", "tcp-idle", "tcp-busy"), lines.stream().skip(1).map(l -> l.split(",")[0]).toList());
        assertNoneLeftBut(before);
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void magpieSelectionTimesBothPoliciesOverAnEmulatedLink() throws Exception {
        String unavailable = EmulatedWan.unavailable();
        if (unavailable != null) {
            System.out.println("magpieSelectionTimesBothPoliciesOverAnEmulatedLink skipped: " + unavailable);
        }
        Assumptions.assumeTrue(unavailable == null, () -> "the emulated testbed cannot be made here: " + unavailable);
        List<String> lines = csv(MagpieCommand::run, "--experiments", "selection", "--selection-sizes", "64,16k",
            "--repeat", "1", "--plogp-max", "1k", "--plogp-ms", "5", "--rate", "10000000", "--delay-ms", "1");
        String text = String.join("\n", lines);
        for (String row : List.of("64 B zeros", "16 KiB zeros", "64 B random", "16 KiB random")) {
            assertTrue(lines.stream().anyMatch(l -> l.strip().startsWith(row)), () -> "no row " + row + ":\n" + text);
        }
        assertTrue(lines.stream().anyMatch(l -> l.contains(" chosen (fastest by its P-LogP model for 0 B and more")),
            text);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("router: ") && l.contains(" 0 dropped")), text);
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void transformsMeasuresBothTransformsAtEachSize() throws Exception {
        List<String> lines = csv(TransformsCommand::run, "--sizes", "256,4k", "--seconds", "0.01", "--rounds", "1", "--csv");
        assertEquals("transform,size,raw_mb_per_s,polylink_mb_per_s,ratio", lines.get(0));
        assertEquals(List.of("lz4,256", "aead,256", "lz4,4096", "aead,4096"),
            lines.stream().skip(1).map(l -> l.substring(0, l.indexOf(',', l.indexOf(',') + 1))).toList());
    }

    /**
     * Real bundle updates in a real Felix node process: two cycles per target, every RSR back once
     * and in order. Tagged "packaged": it runs in the package phase, once the node's bundle jars
     * are copied in.
     */
    @Test
    @Tag("packaged")
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void swapUpdatesEachBundleInAFelixNodeUnderTraffic() throws Exception {
        Set<Path> before = benchFiles();
        List<String> lines = csv(SwapCommand::run, "--cycles", "2", "--progress", "50", "--csv", "--timeout", "60");
        assertEquals("target,cycles,sent,delivered,lost,duplicated,reordered,max_stall_ms", lines.get(0));
        assertEquals(List.of("tcp", "shm", "lz4"), lines.stream().skip(1).map(l -> l.split(",")[0]).toList());
        for (String row : lines.subList(1, lines.size())) {
            String[] f = row.split(",");
            assertEquals("2", f[1], row);
            assertEquals(List.of("0", "0", "0"), List.of(f[4], f[5], f[6]), "lost, duplicated, reordered: " + row);
        }
        assertNoneLeftBut(before);
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aPingpongStoppedMidRunStopsItsPeersAndLeavesNoFiles() throws Exception {
        stopMidRun(Process::destroy); // SIGTERM, as kill or Ctrl-C: the command stops its peers
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void thePeersOfAPingpongKilledMidRunStopAndLeaveNoFiles() throws Exception {
        stopMidRun(Process::destroyForcibly); // SIGKILL: the peers see their stdin close
    }

    private static void stopMidRun(java.util.function.Consumer<Process> stop) throws Exception {
        Set<Path> before = benchFiles();
        Path output = Files.createTempFile("pingpong-stopped-", ".log");
        Process command = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), Main.class.getName(), "pingpong", "--impl", "polylink:shm",
            "--sizes", "16", "--count", "100000000", "--warmup", "0")
            .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        List<ProcessHandle> peers = List.of();
        try {
            // Once the client measures, both peers have started (a peer stopped while its shm method
            // starts may leave its directory: the method creates the directory it is given).
            Await.until(() -> read(output).contains("measured round trips"), Duration.ofSeconds(60),
                () -> "the run did not get under way:\n" + read(output));
            assertEquals(1, newBenchFiles(before).size(), "the server's directory, which the client shares: "
                + newBenchFiles(before));
            peers = command.descendants().toList();
            stop.accept(command);
            assertTrue(command.waitFor(30, TimeUnit.SECONDS), "the command did not stop");
            for (ProcessHandle peer : peers) {
                peer.onExit().get(30, TimeUnit.SECONDS);
            }
            assertNoneLeftBut(before);
        } finally {
            peers.forEach(ProcessHandle::destroyForcibly);
            command.destroyForcibly();
            Files.deleteIfExists(output);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void everyCommandExplainsItself() throws Exception {
        for (Command command : List.<Command>of(PingPongCommand::run, MultiCommand::run, TransformsCommand::run,
                SwapCommand::run)) {
            String help = String.join("\n", csv(command, "--help"));
            assertTrue(help.startsWith("usage: java -jar polylink-bench.jar "), help);
        }
    }

    /**
     * The peers' temporary directories (shm segments, the raw-shm file, Aeron's driver) are gone:
     * none is there that was not there before (another run on this machine may own those).
     */
    private static void assertNoneLeftBut(Set<Path> before) {
        Set<Path> left = newBenchFiles(before);
        assertTrue(left.isEmpty(), "left behind: " + left);
    }

    private static Set<Path> newBenchFiles(Set<Path> before) {
        try {
            Set<Path> now = benchFiles();
            now.removeAll(before);
            return now;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Set<Path> benchFiles() throws Exception {
        Set<Path> found = new HashSet<>();
        String own = System.getenv("POLYLINK_BENCH_TMP"); // set by the pom: the peers' files go there
        List<Path> bases = own != null ? List.of(Path.of(own))
            : List.of(Path.of("/dev/shm"), Path.of(System.getProperty("java.io.tmpdir")));
        for (Path base : bases) {
            if (Files.isDirectory(base)) {
                try (Stream<Path> files = Files.list(base)) {
                    files.filter(p -> p.getFileName().toString().startsWith("polylink-bench-")).forEach(found::add);
                }
            }
        }
        return found;
    }
}
