package io.polylink.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A directory in which no file can be made, renamed or removed until {@link #close}, for tests of
 * what a component does when it cannot write where it keeps its files. Files already in it can
 * still be read and written. For a user who may ignore permissions (root), the directory is made
 * immutable ({@code chattr +i}); for others, read-only ({@code chmod a-w}).
 */
public final class FrozenDirectory implements AutoCloseable {

    private final Path directory;
    private final Set<PosixFilePermission> permissions;
    private final boolean immutable;

    private FrozenDirectory(Path directory, Set<PosixFilePermission> permissions, boolean immutable) {
        this.directory = directory;
        this.permissions = permissions;
        this.immutable = immutable;
    }

    /**
     * @throws IOException if it cannot be frozen, such as where root's {@code chattr} is missing
     */
    public static FrozenDirectory freeze(Path directory) throws IOException {
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(directory);
        Path probe = directory.resolve(".frozen-probe");
        Files.setPosixFilePermissions(directory, Set.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_EXECUTE));
        boolean privileged;
        try {
            Files.deleteIfExists(Files.createFile(probe));
            privileged = true; // this user writes where permissions say it may not
        } catch (IOException refused) {
            privileged = false;
        }
        if (!privileged) {
            return new FrozenDirectory(directory, permissions, false);
        }
        Files.setPosixFilePermissions(directory, permissions);
        run("chattr", "+i", directory.toString());
        return new FrozenDirectory(directory, permissions, true);
    }

    private static void run(String... command) throws IOException {
        Process p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " failed: "
                    + new String(p.getInputStream().readAllBytes()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " interrupted", e);
        }
    }

    /** Lets files be made in the directory again. */
    @Override
    public void close() {
        try {
            if (immutable) {
                run("chattr", "-i", directory.toString());
            } else {
                Files.setPosixFilePermissions(directory, permissions);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot thaw " + directory, e);
        }
    }
}
