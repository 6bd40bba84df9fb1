package io.polylink.method.shm.internal.segment;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;
import static java.nio.file.attribute.PosixFilePermission.GROUP_WRITE;
import static java.nio.file.attribute.PosixFilePermission.OTHERS_WRITE;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * A segment directory held open for one operation. Its owner and permissions are read through its
 * open descriptor, and files in it are looked at, opened, made and renamed relative to that
 * descriptor without following links ({@code fstatat}, {@code openat}, {@code renameat}). Once
 * {@link #requirePrivate} passed, no one but its owner can add, remove or swap a file in it, so
 * what a file was found to be when it was looked at is what is opened: a check by path could be
 * answered by one file and used on another.
 */
final class SecureDirectory implements AutoCloseable {

    private static final Set<OpenOption> EXISTING = Set.of(READ, WRITE, NOFOLLOW_LINKS);
    private static final Set<OpenOption> NEW = Set.of(READ, WRITE, CREATE_NEW, NOFOLLOW_LINKS);

    private final Path path;
    private final SecureDirectoryStream<Path> stream;

    private SecureDirectory(Path path, SecureDirectoryStream<Path> stream) {
        this.path = path;
        this.stream = stream;
    }

    /**
     * @throws IOException if it cannot be opened, such as {@code NoSuchFileException}
     * @throws SegmentException if this platform cannot open files relative to a directory
     */
    static SecureDirectory open(Path path) throws IOException {
        DirectoryStream<Path> stream = Files.newDirectoryStream(path);
        if (stream instanceof SecureDirectoryStream<Path> secure) {
            return new SecureDirectory(path, secure);
        }
        stream.close();
        throw new SegmentException("segment directory " + path + " cannot be opened so that its files are checked "
            + "through their descriptors on this platform; shm maps no inbox here");
    }

    Path path() {
        return path;
    }

    /**
     * @throws SegmentException unless the directory belongs to {@code user} and no one else may
     *     write it, saying what to change
     */
    void requirePrivate(UserPrincipal user) throws IOException {
        PosixFileAttributes self = stream.getFileAttributeView(PosixFileAttributeView.class).readAttributes();
        if (!self.owner().equals(user)) {
            throw new SegmentException("segment directory " + path + " belongs to " + self.owner().getName()
                + ", not to " + user.getName() + ", the user this context runs as; shm maps inboxes only from "
                + "directories of its own user");
        }
        if (othersMayWrite(self)) {
            throw new SegmentException("segment directory " + path + " may be written by other users ("
                + PosixFilePermissions.toString(self.permissions()) + "); shm maps inboxes only from directories "
                + "its own user alone may write: chmod go-w " + path);
        }
    }

    /**
     * @param name a file in the directory, not followed if it is a link
     * @return its attributes
     * @throws java.nio.file.NoSuchFileException if there is none
     * @throws SegmentException unless it is a regular file of {@code user}'s that no one else may write
     */
    PosixFileAttributes requireOwnFile(String name, UserPrincipal user) throws IOException {
        PosixFileAttributes file = attributes(name);
        Path where = path.resolve(name);
        if (!file.isRegularFile()) {
            throw new SegmentException("shm segment " + where + " is not a regular file");
        }
        if (!file.owner().equals(user)) {
            throw new SegmentException("shm segment " + where + " belongs to " + file.owner().getName() + ", not to "
                + user.getName() + ", the user this context runs as; shm maps only its own user's inboxes");
        }
        if (othersMayWrite(file)) {
            throw new SegmentException("shm segment " + where + " may be written by other users ("
                + PosixFilePermissions.toString(file.permissions()) + "); shm maps only inboxes their owner alone "
                + "may write");
        }
        return file;
    }

    private static boolean othersMayWrite(PosixFileAttributes attributes) {
        return attributes.permissions().contains(GROUP_WRITE) || attributes.permissions().contains(OTHERS_WRITE);
    }

    /**
     * @param name a file in the directory, not followed if it is a link
     * @throws java.nio.file.NoSuchFileException if there is none
     */
    PosixFileAttributes attributes(String name) throws IOException {
        return stream.getFileAttributeView(Path.of(name), PosixFileAttributeView.class, NOFOLLOW_LINKS)
            .readAttributes();
    }

    /** Opens an existing file for reading and writing, never through a link. */
    FileChannel open(String name) throws IOException {
        return (FileChannel) stream.newByteChannel(Path.of(name), EXISTING);
    }

    /** Makes a new file that only its owner may read and write. */
    FileChannel create(String name) throws IOException {
        return (FileChannel) stream.newByteChannel(Path.of(name), NEW,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }

    /** Renames {@code from} to {@code to} in one step, replacing what {@code to} named. */
    void rename(String from, String to) throws IOException {
        stream.move(Path.of(from), stream, Path.of(to));
    }

    void delete(String name) throws IOException {
        stream.deleteFile(Path.of(name));
    }

    @Override
    public void close() throws IOException {
        stream.close();
    }
}
