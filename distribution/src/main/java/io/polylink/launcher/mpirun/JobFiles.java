package io.polylink.launcher.mpirun;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Everything a job writes, and its removal: the job's directory (the naming registry unless one
 * was given, and each rank's runtime storage), its shm segment directory in {@code /dev/shm}
 * (memory, not disk) when there is one, and, in a registry that was given, the names the job
 * published. A rank that ends normally removes its own files; a rank that was killed leaves them,
 * and {@link #close()} removes what is left. Thread-safe; closing twice does nothing.
 */
final class JobFiles implements AutoCloseable {

    private static final Path DEV_SHM = Path.of("/dev/shm");

    private final String job;
    private final Path directory;
    private final Path registry;
    private final boolean ownRegistry;
    private final Path shm;
    private boolean closed;

    private JobFiles(String job, Path directory, Path registry, boolean ownRegistry, Path shm) {
        this.job = job;
        this.directory = directory;
        this.registry = registry;
        this.ownRegistry = ownRegistry;
        this.shm = shm;
    }

    /**
     * Makes a job id and the job's directories.
     *
     * @param tmpdir where the job's directory goes, or {@code null} for {@code java.io.tmpdir}
     * @param registry the naming registry to use, or {@code null} for one of the job's own
     * @throws IOException if a directory cannot be made; nothing is left
     */
    static JobFiles create(Path tmpdir, Path registry) throws IOException {
        byte[] random = new byte[6];
        new SecureRandom().nextBytes(random);
        String job = "j" + HexFormat.of().formatHex(random);
        Path base = (tmpdir != null ? tmpdir : Path.of(System.getProperty("java.io.tmpdir"))).toAbsolutePath();
        Path directory = Files.createDirectories(base).resolve("polylink-mpirun-" + job);
        Files.createDirectory(directory);
        JobFiles files = null;
        try {
            Path reg = registry != null ? Files.createDirectories(registry.toAbsolutePath())
                : Files.createDirectory(directory.resolve("registry"));
            Path shm = Files.isDirectory(DEV_SHM) && Files.isWritable(DEV_SHM) ? DEV_SHM.resolve("polylink-mpirun-" + job)
                : directory.resolve("shm");
            files = new JobFiles(job, directory, reg, registry == null, shm);
            Files.createDirectory(shm);
            return files;
        } catch (IOException | RuntimeException e) {
            if (files != null) {
                files.close();
            } else {
                delete(directory);
            }
            throw e;
        }
    }

    /** @return the job's id: 'j' and 12 hex digits */
    String job() {
        return job;
    }

    Path registry() {
        return registry;
    }

    Path shm() {
        return shm;
    }

    /** @return where rank {@code rank}'s runtime keeps its files */
    Path storage(int rank) {
        return directory.resolve("rank-" + rank);
    }

    Path directory() {
        return directory;
    }

    /** @return where the rank that aborts the job says so: {@code RANK CODE REASON}, one line */
    Path abortRecord() {
        return directory.resolve("abort");
    }

    /** @return the abort record, if a rank wrote a whole one */
    Optional<String> abort() {
        try {
            String text = Files.readString(abortRecord(), StandardCharsets.UTF_8);
            return text.matches("(?s)\\d+ -?\\d+ .*\n") ? Optional.of(text.strip()) : Optional.empty();
        } catch (IOException none) {
            return Optional.empty();
        }
    }

    /**
     * Removes the job's directory and shm directory, and the job's names from a registry that was
     * given.
     *
     * @throws UncheckedIOException naming what could not be removed
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<String> left = new ArrayList<>();
        if (!ownRegistry) {
            // a published name is NAME.startpoint; a name being written, .NAME*.tmp (see the core's registry)
            try (DirectoryStream<Path> names = Files.newDirectoryStream(registry,
                    "{mpi." + job + ".*.startpoint,.mpi." + job + ".*.tmp}")) {
                for (Path p : names) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException e) {
                left.add(registry + " (the job's names): " + e.getMessage());
            }
        }
        for (Path p : List.of(shm, directory)) {
            try {
                delete(p);
            } catch (IOException e) {
                left.add(p + ": " + e.getMessage());
            }
        }
        if (!left.isEmpty()) {
            throw new UncheckedIOException(new IOException("could not remove " + String.join("; ", left)));
        }
    }

    private static void delete(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                try {
                    Files.deleteIfExists(p);
                } catch (NoSuchFileException gone) {
                    // a rank removed it meanwhile
                }
            }
        } catch (NoSuchFileException gone) {
            // a rank removed the last of it meanwhile
        } catch (UncheckedIOException e) {
            if (!(e.getCause() instanceof NoSuchFileException)) {
                throw e.getCause();
            }
            delete(root); // a rank removed part of it while the walk went on: what is left
        }
    }
}
