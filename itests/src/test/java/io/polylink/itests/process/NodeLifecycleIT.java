package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Named nodes in the background, from a copy of the built zip: {@code polylink start}, {@code status}
 * and {@code stop}, with every process and file gone at the end; a second node of a live name
 * refused, the first one's registry entry untouched; a killed node's stale pid file reported and
 * replaced.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class NodeLifecycleIT {

    private static final Duration LIMIT = Duration.ofSeconds(120);
    private static final Pattern UP = Pattern.compile(
        "node alpha up \\(pid (\\d+)\\): context ([0-9a-f-]{36}), methods (local, shm, tcp)");

    @TempDir
    Path temp;

    private Path home;

    @BeforeEach
    void install() throws IOException {
        home = Installation.copy(temp.resolve("home"));
    }

    @AfterEach
    void killWhatRemains() throws IOException {
        BackgroundNodes.killAll(home);
    }

    @Test
    void startStatusAndStopOfANamedNodeLeaveNoProcessAndNoFile() throws Exception {
        Up alpha = start();
        assertEquals(alpha.pid(), BackgroundNodes.pid(home, "alpha").orElseThrow(), "run/alpha.pid");
        assertTrue(Files.exists(home.resolve("registry/alpha.startpoint")), "the node publishes its name");

        LauncherRun status = LauncherRun.of(home, LIMIT, "status", "--name", "alpha");
        assertEquals(0, status.exitCode(), status.output());
        for (String line : List.of("node alpha is running: pid " + alpha.pid(), "context  " + alpha.context(),
                "methods  local, shm, tcp", "log      " + home.toRealPath().resolve("logs/alpha.log"),
                "storage  for this run, in " + home.toRealPath().resolve("work/alpha-" + alpha.pid()))) {
            assertTrue(status.output().contains(line), "status lacks '" + line + "':\n" + status.output());
        }
        LauncherRun all = LauncherRun.of(home, LIMIT, "status");
        assertEquals(0, all.exitCode(), all.output());
        assertTrue(Pattern.compile("(?m)^alpha +running +" + alpha.pid() + " +" + alpha.context() + " +local, shm, tcp$")
            .matcher(all.output()).find(), all.output());

        LauncherRun stop = LauncherRun.of(home, LIMIT, "stop", "--name", "alpha");
        assertEquals(0, stop.exitCode(), stop.output());
        assertTrue(stop.output().startsWith("node alpha (pid " + alpha.pid() + ") stopped in "), stop.output());
        BackgroundNodes.awaitGone(alpha.pid(), Duration.ofSeconds(30));
        assertEquals(List.of(), list(home.resolve("run")), "the pid and facts files go with the node");
        assertEquals(List.of(), list(home.resolve("work")), "so does its framework storage");
        assertFalse(Files.exists(home.resolve("registry/alpha.startpoint")), "and its registry entry");
        String log = Files.readString(home.resolve("logs/alpha.log"), StandardCharsets.UTF_8);
        for (String line : List.of("INFO io.polylink.launcher: node alpha starting: pid " + alpha.pid(),
                "INFO io.polylink.launcher: node alpha up: context " + alpha.context(),
                "INFO io.polylink.launcher: node alpha stopping", "INFO io.polylink.launcher: node alpha stopped")) {
            assertTrue(log.contains(line), "logs/alpha.log lacks '" + line + "':\n" + log);
        }

        LauncherRun stopped = LauncherRun.of(home, LIMIT, "status", "--name", "alpha");
        assertEquals(3, stopped.exitCode(), stopped.output());
        assertEquals("node alpha is stopped", stopped.output().strip());
        LauncherRun again = LauncherRun.of(home, LIMIT, "stop", "--name", "alpha");
        assertEquals(0, again.exitCode(), again.output());
        assertEquals("node alpha is not running", again.output().strip());
    }

    @Test
    void aSecondNodeOfALiveNameIsRefusedAndTheFirstOnesRegistryEntryStaysAsItIs() throws Exception {
        // Two starts at once: the name goes to one of them.
        List<LauncherRun> runs = concurrently(() -> LauncherRun.of(home, LIMIT, "start", "--name", "alpha"), 2);
        LauncherRun won = runs.stream().filter(r -> r.exitCode() == 0).findFirst()
            .orElseThrow(() -> new AssertionError("neither start came up:\n" + runs));
        LauncherRun lost = runs.get(runs.indexOf(won) == 0 ? 1 : 0);
        Up alpha = up(won);
        assertEquals(3, lost.exitCode(), lost.output());
        assertTrue(lost.output().contains("node alpha is already running (pid " + alpha.pid() + ")"), lost.output());

        Path entry = home.resolve("registry/alpha.startpoint");
        Driver.await(() -> Files.exists(entry), Duration.ofSeconds(30), () -> "no " + entry);
        String text = Files.readString(entry);
        FileTime written = Files.getLastModifiedTime(entry);

        LauncherRun start = LauncherRun.of(home, LIMIT, "start", "--name", "alpha");
        assertEquals(3, start.exitCode(), start.output());
        assertTrue(start.output().contains("node alpha is already running (pid " + alpha.pid() + "): stop it first"),
            start.output());
        // The node's own check, without start's in front of it.
        LauncherRun node = LauncherRun.of(home, LIMIT, "node", "--daemon", "--name", "alpha");
        assertEquals(3, node.exitCode(), node.output());
        assertTrue(node.output().contains("polylink node: node alpha is already running (pid " + alpha.pid() + ")"),
            node.output());

        assertEquals(text, Files.readString(entry), "the live node's registry entry");
        assertEquals(written, Files.getLastModifiedTime(entry), "the live node's registry entry, untouched");
        LauncherRun status = LauncherRun.of(home, LIMIT, "status", "--name", "alpha");
        assertEquals(0, status.exitCode(), status.output());
        assertTrue(status.output().contains("pid " + alpha.pid()) && status.output().contains(alpha.context()),
            status.output());
        assertEquals(0, LauncherRun.of(home, LIMIT, "stop", "--name", "alpha").exitCode());
        BackgroundNodes.awaitGone(alpha.pid(), Duration.ofSeconds(30));
    }

    @Test
    void aKilledNodesStalePidFileIsReportedAndTheNextStartReplacesItWithALogLine() throws Exception {
        Up first = start();
        Path entry = home.resolve("registry/alpha.startpoint");
        Driver.await(() -> Files.exists(entry), Duration.ofSeconds(30), () -> "no " + entry);
        String firstEntry = Files.readString(entry);
        ProcessHandle.of(first.pid()).orElseThrow().destroyForcibly();
        BackgroundNodes.awaitGone(first.pid(), Duration.ofSeconds(30));

        LauncherRun status = LauncherRun.of(home, LIMIT, "status", "--name", "alpha");
        assertEquals(1, status.exitCode(), status.output());
        assertTrue(status.output().contains("node alpha is not running, but its pid file is stale: pid " + first.pid()),
            status.output());
        LauncherRun all = LauncherRun.of(home, LIMIT, "status");
        assertTrue(Pattern.compile("(?m)^alpha +stale +" + first.pid() + " ").matcher(all.output()).find(), all.output());
        assertEquals(firstEntry, Files.readString(entry), "a killed node leaves its registry entry");

        LauncherRun restart = LauncherRun.of(home, LIMIT, "start", "--name", "alpha");
        assertEquals(0, restart.exitCode(), restart.output());
        assertTrue(restart.output().contains("node alpha (pid " + first.pid() + ") ended without removing its pid file"),
            restart.output());
        Up second = up(restart);
        assertNotEquals(first.pid(), second.pid());
        assertEquals(second.pid(), BackgroundNodes.pid(home, "alpha").orElseThrow());
        String log = Files.readString(home.resolve("logs/alpha.log"), StandardCharsets.UTF_8);
        assertTrue(log.contains("WARNING io.polylink.launcher: node alpha replaced the stale pid file "
            + home.toRealPath().resolve("run/alpha.pid") + " of pid " + first.pid()), log);
        Driver.await(() -> !read(entry).isEmpty() && !read(entry).equals(firstEntry), Duration.ofSeconds(30),
            () -> "the new context did not replace the registry entry");
        assertEquals(0, LauncherRun.of(home, LIMIT, "stop", "--name", "alpha").exitCode());
        BackgroundNodes.awaitGone(second.pid(), Duration.ofSeconds(30));
    }

    @Test
    void everyCommandsHelpNamesItsOptionsAndAnUnknownOptionExitsWith2NamingIt() throws Exception {
        assertHelp("node", "--name NAME", "--daemon", "--conf DIR", "--keep-state", "Exit status");
        assertHelp("start", "--name NAME", "--conf DIR", "--keep-state", "--timeout SECONDS", "Exit status");
        assertHelp("stop", "--name NAME", "--timeout SECONDS", "Exit status");
        assertHelp("status", "--name NAME", "Exit status");
        LauncherRun help = LauncherRun.of(home, LIMIT, "--help");
        for (String word : List.of("start ", "stop ", "status ", "--version")) {
            assertTrue(help.output().contains(word), help.output());
        }
        for (String command : List.of("node", "start", "stop", "status")) {
            LauncherRun bad = LauncherRun.of(home, LIMIT, command, "--bogus");
            assertEquals(2, bad.exitCode(), bad.output());
            assertTrue(bad.output().startsWith("polylink " + command + ": unknown option '--bogus'"), bad.output());
        }
        LauncherRun daemonStart = LauncherRun.of(home, LIMIT, "start", "--daemon");
        assertEquals(2, daemonStart.exitCode(), "start has no --daemon: it is one:\n" + daemonStart.output());
        LauncherRun noName = LauncherRun.of(home, LIMIT, "stop", "--name");
        assertEquals(2, noName.exitCode(), noName.output());
        assertTrue(noName.output().startsWith("polylink stop: --name needs a value"), noName.output());
        LauncherRun badVersion = LauncherRun.of(home, LIMIT, "--version", "--bogus");
        assertEquals(2, badVersion.exitCode(), badVersion.output());
        assertEquals(List.of(), list(home.resolve("run")), "a refused command starts nothing");
    }

    @Test
    void versionNamesTheBuildAndTheApiAndSpiPackageVersions() throws Exception {
        LauncherRun version = LauncherRun.of(home, LIMIT, "--version");
        assertEquals(0, version.exitCode(), version.output());
        String build = System.getProperty("polylink.version");
        assertTrue(build != null && !build.isBlank(), "the build passes polylink.version");
        List<String> lines = version.output().lines().toList();
        assertEquals("polylink " + build, lines.get(0));
        String exports = apiExports();
        assertEquals("  API  io.polylink      " + exported(exports, "io.polylink"), lines.get(1));
        assertEquals("  SPI  io.polylink.spi  " + exported(exports, "io.polylink.spi"), lines.get(2));
        assertTrue(lines.get(3).startsWith("  on Apache Felix 7.") && lines.get(3).contains(" and Java 17"), lines.get(3));
    }

    private void assertHelp(String command, String... words) throws IOException, InterruptedException {
        LauncherRun help = LauncherRun.of(home, LIMIT, command, "--help");
        assertEquals(0, help.exitCode(), help.output());
        assertTrue(help.output().startsWith("usage: polylink " + command), help.output());
        for (String word : words) {
            assertTrue(help.output().contains(word), command + " --help lacks " + word + ":\n" + help.output());
        }
    }

    /** @return the Export-Package header of the API bundle in bundle/ */
    private String apiExports() throws IOException {
        try (Stream<Path> jars = Files.list(home.resolve("bundle"))) {
            Path api = jars.filter(p -> p.getFileName().toString().startsWith("polylink-api-")).findFirst().orElseThrow();
            try (JarFile jar = new JarFile(api.toFile())) {
                return jar.getManifest().getMainAttributes().getValue("Export-Package");
            }
        }
    }

    /** @return the version of {@code pkg} in an Export-Package header as bnd writes it */
    private static String exported(String exports, String pkg) {
        Matcher m = Pattern.compile("(?:^|,)" + Pattern.quote(pkg) + ";(?:[^,\"]|\"[^\"]*\")*?version=\"([^\"]+)\"")
            .matcher(exports);
        assertTrue(m.find(), pkg + " in " + exports);
        return m.group(1);
    }

    /** What {@code polylink start} says when a node is up. */
    private record Up(long pid, String context) {}

    private Up start() throws IOException, InterruptedException {
        LauncherRun run = LauncherRun.of(home, LIMIT, "start", "--name", "alpha");
        assertEquals(0, run.exitCode(), run.output());
        return up(run);
    }

    private static Up up(LauncherRun run) {
        Matcher m = UP.matcher(run.output());
        assertTrue(m.find(), "no 'up' line:\n" + run.output());
        return new Up(Long.parseLong(m.group(1)), m.group(2));
    }

    private interface Launch {
        LauncherRun run() throws Exception;
    }

    /** Runs {@code launch} on {@code n} threads of this test at once; @return their runs, each thread ended */
    private static List<LauncherRun> concurrently(Launch launch, int n) throws InterruptedException {
        List<LauncherRun> runs = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            threads.add(new Thread(() -> {
                try {
                    LauncherRun run = launch.run();
                    synchronized (runs) {
                        runs.add(run);
                    }
                } catch (Throwable t) {
                    synchronized (failures) {
                        failures.add(t);
                    }
                }
            }, "test-launch-" + i));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join(LIMIT.toMillis() * 2);
            assertFalse(t.isAlive(), t.getName() + " did not end");
        }
        if (!failures.isEmpty()) {
            throw new AssertionError("a launch failed", failures.get(0));
        }
        return runs;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }

    private static List<Path> list(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> !p.getFileName().toString().equals(".lock")).toList();
        }
    }
}
