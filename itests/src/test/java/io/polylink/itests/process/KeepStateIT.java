package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code polylink node --keep-state}: a bundle installed from the shell while the node runs is
 * there again, started, when the node starts again with {@code --keep-state}; a start without it
 * begins with bundle/'s bundles alone, removes its storage when it stops, and leaves the kept
 * state to the next start that asks for it.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KeepStateIT {

    private static final Duration COMMAND = Duration.ofSeconds(60);
    private static final Pattern BUNDLE_ID = Pattern.compile("Bundle ID: (\\d+)");
    private static final String DEMO = "io.polylink.demo";

    @TempDir
    Path temp;

    @Test
    void aBundleInstalledAtRunTimeSurvivesARestartWithKeepStateAndAStartWithoutItBeginsClean() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        try (NodeProcess node = NodeProcess.startWithShell(home, "k", "", "--keep-state")) {
            assertEquals(Optional.empty(), state(node, DEMO));
            List<String> installed = node.shell("install " + home.resolve("lib/demo/polylink-demo.jar").toUri(), COMMAND);
            Matcher id = BUNDLE_ID.matcher(String.join("\n", installed));
            assertTrue(id.find(), "install printed no bundle id: " + installed);
            node.shell("start " + id.group(1), COMMAND);
            assertEquals(Optional.of("Active"), state(node, DEMO));
            node.stop();
        }
        assertTrue(Files.isDirectory(home.resolve("state/k")), "the kept state is in state/k");

        try (NodeProcess node = NodeProcess.startWithShell(home, "k", "", "--keep-state")) {
            assertEquals(Optional.of("Active"), state(node, DEMO), "kept, and started again");
            assertEquals(Optional.of("Active"), state(node, "io.polylink.core"), "bundle/'s bundles as before");
            node.stop();
        }

        try (NodeProcess node = NodeProcess.startWithShell(home, "k", "")) {
            assertEquals(Optional.empty(), state(node, DEMO), "without --keep-state: bundle/'s bundles alone");
            assertEquals(Optional.of("Active"), state(node, "io.polylink.core"));
            node.stop();
        }
        assertEquals(List.of(), list(home.resolve("work")), "a run's own storage goes when it stops");
        assertTrue(Files.isDirectory(home.resolve("state/k")), "and the kept state stays");

        try (NodeProcess node = NodeProcess.startWithShell(home, "k", "", "--keep-state")) {
            assertEquals(Optional.of("Active"), state(node, DEMO), "the kept state, as it was");
            node.stop();
        }
    }

    /** @return the state column of {@code lb -s} for a bundle, if it is installed */
    private static Optional<String> state(NodeProcess node, String symbolicName) {
        return node.shell("lb -s", COMMAND).stream()
            .map(l -> l.split("\\|"))
            .filter(cells -> cells.length >= 4 && cells[3].strip().startsWith(symbolicName + " "))
            .map(cells -> cells[1].strip())
            .findFirst();
    }

    private static List<Path> list(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        }
    }
}
