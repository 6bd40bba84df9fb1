package io.polylink.core.internal.provision;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The descriptor files FileInstall handed over, kept in memory and in a file of the core bundle's
 * data area, one path a line: FileInstall hands a file over once, so the installer applies them
 * to each new runtime of the context itself, and after the core bundle starts again (restarted or
 * updated) it reads them back from here. Not thread-safe: the installer calls it under its lock.
 */
final class DeployedFiles {

    private static final System.Logger LOG = System.getLogger("io.polylink.core");

    /** {@code null} where the framework has no file system: then nothing is recorded. */
    private final Path record;
    private final Set<Path> files = new LinkedHashSet<>();

    /** @param record the file that keeps the list, or {@code null} */
    DeployedFiles(Path record) {
        this.record = record;
        if (record != null && Files.isRegularFile(record)) {
            try {
                for (String line : Files.readAllLines(record, StandardCharsets.UTF_8)) {
                    if (!line.isBlank()) {
                        files.add(Path.of(line));
                    }
                }
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.WARNING, "cannot read the descriptor files recorded in " + record + " (" + e
                    + "); FileInstall hands them over again only when they change");
            }
        }
    }

    /** @return the recorded files, in the order they came */
    List<Path> files() {
        return new ArrayList<>(files);
    }

    void add(Path file) {
        if (files.add(file)) {
            save();
        }
    }

    void remove(Path file) {
        if (files.remove(file)) {
            save();
        }
    }

    private void save() {
        if (record == null) {
            return;
        }
        try {
            Path next = record.resolveSibling(record.getFileName() + ".next");
            Files.write(next, files.stream().map(Path::toString).toList(), StandardCharsets.UTF_8);
            Files.move(next, record, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot record the descriptor files in " + record + " (" + e + "); after the core "
                + "restarts, FileInstall hands them over again only when they change");
        }
    }
}
