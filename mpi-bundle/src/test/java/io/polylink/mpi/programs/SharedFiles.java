package io.polylink.mpi.programs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;

/** The MPI ranks' shared files this process maps, as {@code /proc/self/maps} names them. */
public final class SharedFiles {

    private SharedFiles() {}

    /** @return the shared files this process maps read-write: its own */
    public static Set<String> own() {
        return mapped("rw-s");
    }

    /** @return the shared files this process maps read-only: other ranks' */
    public static Set<String> readOnly() {
        return mapped("r--s");
    }

    /**
     * Makes a shared buffer with {@code make} and deletes its file, as if the ranks could not share
     * it: no other rank of this process may make one meanwhile (a test's ranks share a process).
     *
     * @return the buffer
     */
    public static <T> T unmappable(Supplier<T> make) {
        Set<String> before = own();
        T buffer = make.get();
        Set<String> files = own();
        files.removeAll(before);
        if (files.size() != 1) {
            throw new AssertionError("the file of the buffer: " + files);
        }
        try {
            Files.delete(Path.of(files.iterator().next()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buffer;
    }

    private static Set<String> mapped(String permissions) {
        Set<String> files = new HashSet<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
                String[] f = line.trim().split("\\s+", 6);
                if (f.length == 6 && f[1].equals(permissions) && Path.of(f[5]).getFileName().toString().startsWith("mpi-")) {
                    files.add(f[5]);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }
}
