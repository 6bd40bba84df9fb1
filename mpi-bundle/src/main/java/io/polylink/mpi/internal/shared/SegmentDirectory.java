package io.polylink.mpi.internal.shared;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static java.nio.file.attribute.PosixFilePermission.GROUP_WRITE;
import static java.nio.file.attribute.PosixFilePermission.OTHERS_WRITE;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The directory where a host's ranks keep their shared buffers, and what a file there must be to
 * be read: a regular file of this user's that no one else may write, in a directory of this user's
 * that no one else may write, so no other user can place, swap or change what a rank maps.
 */
public final class SegmentDirectory {

    private static final Pattern NAME = Pattern.compile("mpi-([0-9]{1,19})-[0-9a-f]{16}");

    private final Path path;
    private final UserPrincipal user;

    private SegmentDirectory(Path path, UserPrincipal user) {
        this.path = path;
        this.user = user;
    }

    /** @return /dev/shm/polylink-&lt;user&gt;, where the shm method keeps its inboxes too; {@code null} without /dev/shm */
    public static Path defaultPath() {
        Path shm = Path.of("/dev/shm");
        if (!Files.isDirectory(shm)) {
            return null; // files on a disk would be written back to it: no gain over a second copy
        }
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        return shm.resolve("polylink-" + user);
    }

    /**
     * Opens {@code path}, making it ({@code rwx------}) if it is not there.
     *
     * @throws IOException saying what is wrong with it: not a directory, another user's, or writable
     *     by others
     */
    public static SegmentDirectory open(Path path) throws IOException {
        UserPrincipal user = FileSystems.getDefault().getUserPrincipalLookupService()
            .lookupPrincipalByName(System.getProperty("user.name"));
        if (!Files.exists(path, NOFOLLOW_LINKS)) {
            try {
                Files.createDirectory(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } catch (java.nio.file.FileAlreadyExistsException raced) {
                // another rank made it: checked below
            }
        }
        PosixFileAttributes a = Files.readAttributes(path, PosixFileAttributes.class, NOFOLLOW_LINKS);
        if (!a.isDirectory()) {
            throw new IOException(path + " is not a directory");
        }
        if (!a.owner().equals(user)) {
            throw new IOException(path + " belongs to " + a.owner().getName() + ", not to " + user.getName());
        }
        if (othersMayWrite(a)) {
            throw new IOException(path + " may be written by other users (" + PosixFilePermissions.toString(a.permissions())
                + "): chmod go-w " + path);
        }
        return new SegmentDirectory(path, user);
    }

    Path path() {
        return path;
    }

    /** @return the file of the segment {@code token} of process {@code pid} */
    Path file(long pid, long token) {
        return path.resolve("mpi-" + pid + "-" + HexFormat.of().toHexDigits(token));
    }

    /** @return the process id in a segment file's name, or -1 if {@code name} is no segment's */
    static long owner(String name) {
        Matcher m = NAME.matcher(name);
        return m.matches() ? Long.parseLong(m.group(1)) : -1;
    }

    /** @return whether {@code file} is one a rank may map: a regular file of this user's that others may not write */
    boolean trusted(Path file) throws IOException {
        PosixFileAttributes a = Files.readAttributes(file, PosixFileAttributes.class, NOFOLLOW_LINKS);
        return a.isRegularFile() && a.owner().equals(user) && !othersMayWrite(a);
    }

    private static boolean othersMayWrite(PosixFileAttributes a) {
        return a.permissions().contains(GROUP_WRITE) || a.permissions().contains(OTHERS_WRITE);
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
