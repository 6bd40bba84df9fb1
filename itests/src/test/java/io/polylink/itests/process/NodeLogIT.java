package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node's log, logs/NAME.log, written as the shipped conf/logging.properties says with a few
 * lines changed as a user would: levels per package, and a small size limit, under which the file
 * rotates keeping {@code count} files, the newest records in logs/NAME.log.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class NodeLogIT {

    private static final Duration LIMIT = Duration.ofSeconds(120);
    private static final int BYTES = 600;
    private static final Pattern RECORD = Pattern.compile(
        "\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3} (SEVERE|WARNING|INFO|CONFIG|FINE|FINER|FINEST) [\\w.]+: .*");
    private static final Pattern UP = Pattern.compile("node alpha up \\(pid (\\d+)\\): context ([0-9a-f-]{36})");

    @TempDir
    Path temp;

    private Path home;

    @AfterEach
    void killWhatRemains() throws Exception {
        if (home != null) {
            BackgroundNodes.killAll(home);
        }
    }

    @Test
    void aNodeLogsToItsFileWhichRotatesUnderASmallLimitKeepingCountFiles() throws Exception {
        home = Installation.copy(temp.resolve("home"));
        Installation.set(home, "logging.properties", "io.polylink.launcher.NodeLogFile.limit", Integer.toString(BYTES));
        Installation.set(home, "logging.properties", "io.polylink.launcher.NodeLogFile.count", "2");
        // The aead transform says at INFO that it has no key; the methods' loggers now keep that to themselves.
        Installation.set(home, "logging.properties", "io.polylink.method.level", "WARNING");

        String context = null;
        for (int run = 0; run < 3; run++) {
            LauncherRun start = LauncherRun.of(home, LIMIT, "start", "--name", "alpha");
            assertEquals(0, start.exitCode(), start.output());
            Matcher up = UP.matcher(start.output());
            assertTrue(up.find(), start.output());
            context = up.group(2);
            LauncherRun stop = LauncherRun.of(home, LIMIT, "stop", "--name", "alpha");
            assertEquals(0, stop.exitCode(), stop.output());
            BackgroundNodes.awaitGone(Long.parseLong(up.group(1)), Duration.ofSeconds(30));
        }

        Path logs = home.resolve("logs");
        try (Stream<Path> files = Files.list(logs)) {
            assertEquals(List.of("alpha.log", "alpha.log.1"), files.map(p -> p.getFileName().toString())
                .filter(n -> n.startsWith("alpha.log")).sorted().toList(), "count=2 keeps two files");
        }
        List<String> lines = new ArrayList<>(Files.readAllLines(logs.resolve("alpha.log.1"), StandardCharsets.UTF_8));
        long full = Files.size(logs.resolve("alpha.log.1"));
        int longest = lines.stream().mapToInt(l -> l.getBytes(StandardCharsets.UTF_8).length + 1).max().orElse(0);
        assertTrue(full >= BYTES && full < BYTES + longest, "a full file holds " + BYTES + " bytes and at most the "
            + "record that passed them, not " + full);
        lines.addAll(Files.readAllLines(logs.resolve("alpha.log"), StandardCharsets.UTF_8));
        for (String line : lines) {
            assertTrue(RECORD.matcher(line).matches(), "not one record a line in the shipped format: " + line);
        }
        String lastUp = "INFO io.polylink.launcher: node alpha up: context " + context + ", methods local, shm, tcp";
        assertTrue(lines.stream().anyMatch(l -> l.endsWith(lastUp)), "no '" + lastUp + "' in " + lines);
        assertTrue(lines.get(lines.size() - 1).endsWith("INFO io.polylink.launcher: node alpha stopped"),
            "the last run's last record, written after its framework stopped, is the newest: " + lines);
        assertFalse(lines.stream().anyMatch(l -> l.contains(" io.polylink.method.")), "methods log at WARNING: " + lines);
    }
}
