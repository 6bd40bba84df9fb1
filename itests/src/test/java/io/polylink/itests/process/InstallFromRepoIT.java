package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code polylink:install} on the distribution's own configuration installs from its own repo/. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class InstallFromRepoIT {

    private static final Duration COMMAND = Duration.ofSeconds(60);

    @TempDir
    Path temp;

    @Test
    void polylinkInstallTakesATransformFromTheDistributionsRepoOnItsOwnConfiguration() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        String core = Files.readString(home.resolve("conf/io.polylink.core.cfg"));
        assertTrue(core.contains("\nrepository=${polylink.home}/repo/index.xml\n"), "the shipped repository line:\n" + core);

        try (NodeProcess node = NodeProcess.startWithShell(home, "i", "")) {
            node.shell("uninstall io.polylink.method.compress", COMMAND);
            assertTrue(methods(node).stream().noneMatch(l -> l.startsWith("lz4 ")), "lz4 is gone");

            String installed = String.join("\n", node.shell("polylink:install lz4", Duration.ofMinutes(2)));
            String index = home.toRealPath().resolve("repo/index.xml").toUri().toString();
            assertTrue(installed.startsWith("installed ") && installed.contains("lz4 from " + index), installed);
            assertTrue(installed.contains("io.polylink.method.compress") && installed.contains("ACTIVE"), installed);
            Driver.await(() -> methods(node).stream().anyMatch(l -> l.startsWith("lz4 ")), COMMAND,
                () -> "lz4 is not listed again: " + methods(node));
        }
    }

    private static List<String> methods(NodeProcess node) {
        return node.shell("polylink:methods", COMMAND);
    }
}
