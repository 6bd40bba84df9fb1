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
 * without {@code --keep-state} leaves that folder alone.
 *
 * @param dir the folder
 * @param kept whether it outlives the run
 */
record FrameworkStorage(Path dir, boolean kept) {

    static FrameworkStorage of(Home home, String name, boolean keep) throws IOException {
        if (keep) {
            return new FrameworkStorage(home.state().resolve(name), true);
        }
        removeStale(home.work());
        return new FrameworkStorage(home.work().resolve(name + "-" + ProcessHandle.current().pid()), false);
    }

    /** Sets the framework properties that place the storage. */
    void configure(Map<String, String> properties) {
        properties.put(Constants.FRAMEWORK_STORAGE, dir.toString());
        if (!kept) {
            properties.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        }
    }

    /** Removes the folder of a run; a kept one stays. */
    void release() {
        if (!kept) {
            Folders.delete(dir);
        }
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
