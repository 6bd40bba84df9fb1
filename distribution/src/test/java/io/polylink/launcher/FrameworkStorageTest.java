package io.polylink.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FrameworkStorageTest {

    @TempDir
    Path root;

    @Test
    void aRunsStorageIsCleanedAndRemovedAKeptOneKeptAndConfigurationIsAlwaysTheRuns() throws Exception {
        Home home = new Home(root);
        long pid = ProcessHandle.current().pid();
        Path run = root.resolve("work/n-" + pid);

        FrameworkStorage fresh = FrameworkStorage.of(home, "n", false);
        Map<String, String> properties = new HashMap<>();
        fresh.configure(properties);
        assertEquals(Map.of("org.osgi.framework.storage", run.toString(),
            "org.osgi.framework.storage.clean", "onFirstInit",
            "felix.cm.dir", run.resolve("config").toString(),
            "felix.fileinstall.tmpdir", run.resolve("fileinstall").toString()), properties);

        FrameworkStorage kept = FrameworkStorage.of(home, "n", true);
        properties.clear();
        kept.configure(properties);
        assertEquals(Map.of("org.osgi.framework.storage", root.resolve("state/n").toString(),
            "felix.cm.dir", run.resolve("config").toString(),
            "felix.fileinstall.tmpdir", run.resolve("fileinstall").toString()), properties);

        Files.createDirectories(root.resolve("state/n/bundle1"));
        Files.createDirectories(run.resolve("config"));
        kept.release();
        assertFalse(Files.exists(run), "the run's folder goes");
        assertTrue(Files.isDirectory(root.resolve("state/n/bundle1")), "the kept storage stays");
    }

    @Test
    void theRunFoldersOfEndedProcessesGoWhenANodeStarts() throws Exception {
        Path dead = Files.createDirectories(root.resolve("work/m-" + Long.MAX_VALUE));
        Path notOurs = Files.createDirectories(root.resolve("work/notes"));
        FrameworkStorage.of(new Home(root), "n", false);
        assertFalse(Files.exists(dead));
        assertTrue(Files.exists(notOurs));
    }
}
