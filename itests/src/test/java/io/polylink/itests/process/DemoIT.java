package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/polylink demo} and the launcher's help, run from a copy of the built zip. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DemoIT {

    private static final Pattern NODE_PID = Pattern.compile("(alpha|beta) \\(pid (\\d+)\\) up");
    private static final Pattern RESULT = Pattern.compile(
        "sent (\\d+) +delivered (\\d+) +lost (\\d+) +duplicated (\\d+) +reordered (\\d+)");

    @TempDir
    Path temp;

    @Test
    void demoShowsSelectionLatencyLz4AndTheSwapThenLeavesNoProcessOrShmFile() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        long start = System.nanoTime();
        LauncherRun run = LauncherRun.of(home, Duration.ofMinutes(3), "demo");
        double seconds = (System.nanoTime() - start) / 1e9;
        String out = run.output();

        assertNothingLeftBehind(run);
        assertTrue(out.contains("nodes stopped, shm segments and workspace removed"), out);

        // Every step ran and said what it did.
        for (String line : List.of(
                "1. Descriptor tables", "2   shm ", "3   tcp ", "127.0.0.1:",
                "2. Selection of the link alpha -> beta", "2. shm chosen (same host", "3. tcp not considered",
                "3. Ping-pong alpha <-> beta", "4. lz4 stacked on at run time", "1. lz4/shm chosen (same host",
                "alpha g! uninstall io.polylink.method.shm", "link moved lz4/shm -> tcp at RSR #",
                "alpha g! install file:", "link moved tcp -> lz4/shm at RSR #", "6. What beta received")) {
            assertTrue(out.contains(line), "the demo's output lacks '" + line + "':\n" + out);
        }
        for (String stack : List.of("shm", "lz4/shm")) {
            for (int size : List.of(16, 1024, 65536)) {
                assertTrue(Pattern.compile("(?m)^\\s+" + Pattern.quote(stack) + "\\s+" + size + "\\s+1000\\s+[0-9.]+\\s+[0-9.]+$")
                    .matcher(out).find(), "no latency row for " + stack + " at " + size + " bytes:\n" + out);
            }
        }

        // The count is honest and the exit code follows it.
        Matcher result = RESULT.matcher(out);
        assertTrue(result.find(), "no result line:\n" + out);
        long sent = Long.parseLong(result.group(1));
        long delivered = Long.parseLong(result.group(2));
        long lost = Long.parseLong(result.group(3));
        long duplicated = Long.parseLong(result.group(4));
        long reordered = Long.parseLong(result.group(5));
        assertTrue(sent >= 60_000, "three phases of 20000 RSRs:\n" + out);
        assertEquals(sent, delivered + lost, out);
        // Flows number every RSR and replay what the peer has not acknowledged, so a swap loses,
        // duplicates and reorders nothing; the exit code and the last line say so.
        assertEquals(0, lost + duplicated + reordered, "the swaps lost " + lost + ", duplicated " + duplicated
            + " and reordered " + reordered + " of " + sent + " RSRs:\n" + out);
        assertEquals(sent, delivered, out);
        assertEquals(0, run.exitCode(), out);
        assertTrue(out.contains("demo passed in "), out);
        assertTrue(seconds < 90, "the demo took " + seconds + " s:\n" + out);
    }

    @Test
    void ctrlCInTheMiddleOfTheDemoStopsBothNodesAndRemovesEveryFile() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        LauncherRun run = LauncherRun.interruptedAt("3. Ping-pong", home, Duration.ofMinutes(2), "demo");
        String out = run.output();
        assertNothingLeftBehind(run);
        assertTrue(out.contains("demo interrupted"), out);
        assertTrue(run.exitCode() != 0, "an interrupted demo does not exit 0:\n" + out);
    }

    @Test
    void helpDescribesEveryCommandAndOptionAndBadOptionsExitWith2() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        Duration limit = Duration.ofSeconds(60);

        LauncherRun help = LauncherRun.of(home, limit, "--help");
        assertEquals(0, help.exitCode(), help.output());
        for (String word : List.of("node ", "demo ", "bench ", "--help")) {
            assertTrue(help.output().contains(word), help.output());
        }
        assertHelp(LauncherRun.of(home, limit, "node", "--help"), "--name NAME", "--daemon", "--conf DIR", "--help");
        assertHelp(LauncherRun.of(home, limit, "demo", "--help"), "--count N", "--sizes LIST", "--stream N", "--help");
        assertHelp(LauncherRun.of(home, limit, "bench", "--help"), "--out DIR", "pingpong", "multi", "transforms", "swap",
            "--help");

        for (String[] bad : List.of(new String[] {"--bogus"}, new String[] {"nosuch"}, new String[] {"demo", "--bogus"},
                new String[] {"node", "--bogus"}, new String[] {"bench", "--bogus"}, new String[0])) {
            LauncherRun run = LauncherRun.of(home, limit, bad);
            assertEquals(2, run.exitCode(), String.join(" ", bad) + ":\n" + run.output());
            assertTrue(run.output().contains(bad.length == 0 ? "name a command" : "unknown"), run.output());
        }
        LauncherRun unknownBench = LauncherRun.of(home, limit, "bench", "--out", temp.resolve("out").toString(), "nosuch");
        assertEquals(2, unknownBench.exitCode(), unknownBench.output());
        assertTrue(unknownBench.output().contains("unknown command 'nosuch'"), "the bench jar's own message");
        assertFalse(Files.exists(temp.resolve("out")), "a failed bench leaves no output folder");
    }

    private static void assertHelp(LauncherRun run, String... options) {
        assertEquals(0, run.exitCode(), run.output());
        for (String option : options) {
            assertTrue(run.output().contains(option), "help lacks " + option + ":\n" + run.output());
        }
    }

    /** What the demo with this pid names after itself: polylink-demo-<pid> and polylink-demo-<pid>-…. */
    /** The nodes the demo named are gone, and so are their shm segments and its workspace. */
    private static void assertNothingLeftBehind(LauncherRun run) throws IOException {
        String out = run.output();
        Matcher pids = NODE_PID.matcher(out);
        int nodes = 0;
        while (pids.find()) {
            nodes++;
            long pid = Long.parseLong(pids.group(2));
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                "node " + pids.group(1) + " (pid " + pid + ") outlived the demo:\n" + out);
        }
        assertEquals(2, nodes, "the demo names both nodes' pids:\n" + out);
        assertEquals(List.of(), demoFiles(Path.of("/dev/shm"), run.pid()), "shm segments of the demo left behind:\n" + out);
        assertEquals(List.of(), demoFiles(Path.of(System.getProperty("java.io.tmpdir")), run.pid()),
            "workspace left behind:\n" + out);
    }

    private static List<Path> demoFiles(Path dir, long pid) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        String name = "polylink-demo-" + pid;
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().equals(name)
                || p.getFileName().toString().startsWith(name + "-")).toList();
        }
    }
}
