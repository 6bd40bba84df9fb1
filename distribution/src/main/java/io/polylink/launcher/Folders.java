package io.polylink.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removing folders the launcher made. */
final class Folders {

    private Folders() {}

    /** Removes {@code dir} and everything in it; a failure is printed, not thrown. */
    static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("polylink: could not remove " + dir + ": " + e.getMessage());
        }
    }
}
