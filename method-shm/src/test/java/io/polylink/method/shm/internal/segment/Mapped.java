package io.polylink.method.shm.internal.segment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** Maps an inbox for a test to look into, with none of the checks of whose it is. */
public final class Mapped {

    private Mapped() {}

    public static Segment inbox(Path file) {
        try (SecureDirectory directory = SecureDirectory.open(file.getParent())) {
            String name = file.getFileName().toString();
            return Segment.open(directory, name, directory.attributes(name).fileKey());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
