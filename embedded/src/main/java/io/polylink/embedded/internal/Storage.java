package io.polylink.embedded.internal;

import io.polylink.PolylinkException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The directory a runtime keeps its files in: {@code framework/} (the framework's cache),
 * {@code repository/} (the carried bundles and their index), {@code deploy/} and
 * {@code fileinstall/} (FileInstall's scratch space). A marker file says Polylink made it, so a
 * directory of the application's own is never taken, and so never removed.
 */
final class Storage {

    static final String MARKER = ".polylink-storage";

    private final Path root;

    private Storage(Path root) {
        this.root = root;
    }

    /**
     * @param requested the settings' directory, or empty for a fresh one in java.io.tmpdir
     * @param name the context's name, for the fresh directory's name
     * @throws PolylinkException if the directory cannot be made, or holds files Polylink did not make
     */
    static Storage open(Optional<Path> requested, Optional<String> name) {
        try {
            Path root;
            if (requested.isPresent()) {
                root = Files.createDirectories(requested.get());
                if (!Files.exists(root.resolve(MARKER)) && !isEmpty(root)) {
                    throw new PolylinkException("storage directory " + root + " holds files Polylink did not make, "
                        + "and a storage directory is removed on close; give an empty or a new directory");
                }
            } else {
                root = Files.createTempDirectory("polylink-" + name.orElse("context") + "-");
            }
            Files.write(root.resolve(MARKER), new byte[0]);
            Storage storage = new Storage(root);
            Files.createDirectories(storage.deploy());
            return storage;
        } catch (IOException e) {
            throw new PolylinkException("cannot prepare the storage directory: " + e, e);
        }
    }

    private static boolean isEmpty(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.findAny().isEmpty();
        }
    }

    Path root() {
        return root;
    }

    Path framework() {
        return root.resolve("framework");
    }

    Path repository() {
        return root.resolve("repository");
    }

    Path deploy() {
        return root.resolve("deploy");
    }

    Path fileInstall() {
        return root.resolve("fileinstall");
    }

    /**
     * Removes the directory and everything in it.
     *
     * @throws IOException naming the first file that could not be removed
     */
    void delete() throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
