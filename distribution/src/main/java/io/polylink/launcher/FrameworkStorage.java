package io.polylink.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.osgi.framework.Constants;

/**
 * Where a node's framework keeps its bundles and their data. By default a folder of the run,
 * {@code work/NAME-PID/}, emptied when it is made and removed when the node stops, so every start
 * begins with bundle/'s bundles alone. With {@code --keep-state}, {@code state/NAME/}, kept across
 * runs, so bundles installed while the node ran are there again at its next start; a start
 * without {@code --keep-state} leaves that folder alone. Configuration is never kept: Config
 * Admin's store is in the run's folder either way, so conf/ as it is now is what a node starts with.
 *
 * @param dir the framework's storage
 * @param kept whether it outlives the run
 * @param run the run's own folder, removed when the node stops: {@code dir} unless kept
 */
record FrameworkStorage(Path dir, boolean kept, Path run) {

    static FrameworkStorage of(Home home, String name, boolean keep) throws IOException {
        removeStale(home.work());
        Path run = home.work().resolve(name + "-" + ProcessHandle.current().pid());
        return keep ? new FrameworkStorage(home.state().resolve(name), true, run) : new FrameworkStorage(run, false, run);
    }

    /** Sets the framework properties that place the storage, Config Admin's store and FileInstall's scratch space. */
    void configure(Map<String, String> properties) {
        properties.put(Constants.FRAMEWORK_STORAGE, dir.toString());
        if (!kept) {
            properties.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        }
        properties.put("felix.cm.dir", run.resolve("config").toString());
        // FileInstall's default is a fresh folder in java.io.tmpdir per start, left behind by a kill -9.
        properties.putIfAbsent("felix.fileinstall.tmpdir", run.resolve("fileinstall").toString());
    }

    /** Removes the run's folder; a kept storage stays. */
    void release() {
        Folders.delete(run);
    }

    @Override
    public String toString() {
        return (kept ? "kept in " : "for this run, in ") + dir;
    }

    /** Run folders of nodes that were killed: their process is gone. */
    private static void removeStale(Path work) throws IOException {
        if (!Files.isDirectory(work)) {
            return;
        }
        try (Stream<Path> dirs = Files.list(work)) {
            for (Path dir : dirs.toList()) {
                String n = dir.getFileName().toString();
                try {
                    long pid = Long.parseLong(n.substring(n.lastIndexOf('-') + 1));
                    if (ProcessHandle.of(pid).isEmpty()) {
                        Folders.delete(dir);
                    }
                } catch (NumberFormatException notOurs) {
                    // leave folders we did not make
                }
            }
        }
    }
}
