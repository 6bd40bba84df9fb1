package io.polylink.bench.internal.pingpong;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A fresh directory for one peer's shared-memory files, on tmpfs where there is one (/dev/shm) so
 * memory-mapped files never touch a disk, or under {@code $POLYLINK_BENCH_TMP} if set; deleted
 * with everything in it on close, and by a shutdown hook if the process is stopped first.
 */
public final class TempDirectory implements AutoCloseable {

    private final Path path;
    private final Thread hook;

    private TempDirectory(Path path) {
        this.path = path;
        this.hook = new Thread(this::delete, "pingpong-delete-" + path.getFileName());
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * @param prefix the start of the directory's name
     * @throws IllegalStateException if the process is already shutting down (it was stopped as it
     *     started); the directory is deleted again
     */
    public static TempDirectory create(String prefix) throws IOException {
        Path path = Files.createTempDirectory(Files.createDirectories(base()), prefix);
        try {
            return new TempDirectory(path);
        } catch (IllegalStateException shuttingDown) {
            Files.deleteIfExists(path);
            throw shuttingDown;
        }
    }

    /** Where the directories go: child processes inherit the environment, and so the choice. */
    static Path base() {
        String chosen = System.getenv("POLYLINK_BENCH_TMP");
        if (chosen != null && !chosen.isBlank()) {
            return Path.of(chosen);
        }
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    public Path path() {
        return path;
    }

    private void delete() {
        if (!Files.exists(path)) {
            return;
        }
        List<Path> all;
        try (Stream<Path> walk = Files.walk(path)) {
            all = walk.sorted(Comparator.reverseOrder()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + path + " to delete it", e);
        }
        for (Path p : all) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                System.err.println("could not delete " + p + ": " + e);
            }
        }
    }

    /** Deletes the directory and its contents; reports what it could not delete on stderr. */
    @Override
    public void close() {
        try {
            delete();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway and finds nothing left
            }
        }
    }
}
