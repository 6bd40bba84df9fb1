package io.polylink.method.shm.internal.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.polylink.ContextId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which inboxes a context maps: only regular files of its own user that no one else may write, in
 * its own segment directory or one it is configured to trust, itself its user's and writable by
 * no one else. Each refusal names the file and what is wrong, and maps nothing.
 */
class TrustedDirectoriesTest {

    private static final int RING = InboxLayout.MIN_RING;

    @TempDir
    Path own;
    @TempDir
    Path other;

    private TrustedDirectories trusted;
    private Segment mine;

    @BeforeEach
    void makeOwnInbox() throws IOException {
        trusted = new TrustedDirectories(own, List.of());
        mine = trusted.create(name(1), new ContextId(0, 1), 2, RING, 1, 0);
    }

    @AfterEach
    void closeOwnInbox() {
        mine.close();
    }

    private static String name(long id) {
        return SegmentDirectory.inboxName(new ContextId(0, id));
    }

    /** A well-formed inbox of context {@code id} in {@code directory}, made as a peer would. */
    private static Path inbox(Path directory, long id) throws IOException {
        new TrustedDirectories(directory, List.of()).create(name(id), new ContextId(0, id), 2, RING, 1, 0).close();
        return directory.resolve(name(id));
    }

    private String refusal(Path directory, String name) {
        return assertThrows(SegmentException.class, () -> trusted.open(directory, name)).getMessage();
    }

    @Test
    void anInboxInTheOwnDirectoryOrOneConfiguredAsTrustedIsMapped() throws IOException {
        inbox(own, 2);
        inbox(other, 3);
        try (Segment peer = trusted.open(own, name(2))) {
            assertEquals(new ContextId(0, 2), peer.owner());
        }
        TrustedDirectories both = new TrustedDirectories(own, List.of(other));
        both.create(name(4), new ContextId(0, 4), 2, RING, 1, 0).close();
        try (Segment further = both.open(other, name(3))) {
            assertEquals(new ContextId(0, 3), further.owner());
        }
    }

    @Test
    void anInboxInADirectoryNotTrustedIsRefusedNamingTheSetting() throws IOException {
        inbox(other, 3);
        assertEquals("shm maps no inbox " + other.resolve(name(3)) + ": segment directory " + other + " is not one "
            + "this context trusts (its own is " + own + "; add the other to trustedDirectories to map inboxes there)",
            refusal(other, name(3)));
    }

    @Test
    void aLinkInPlaceOfAnInboxIsNotFollowed() throws IOException {
        Path target = inbox(other, 3);
        Files.createSymbolicLink(own.resolve(name(3)), target);
        assertEquals("shm segment " + own.resolve(name(3)) + " is not a regular file", refusal(own, name(3)));
    }

    @Test
    void anInboxOthersMayWriteIsRefused() throws IOException {
        Path file = inbox(own, 2);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertEquals("shm segment " + file + " may be written by other users (rw-rw-rw-); shm maps only inboxes "
            + "their owner alone may write", refusal(own, name(2)));
    }

    @Test
    void aDirectoryOthersMayWriteIsRefusedForPeersInboxesAndTheOwnAlike() throws IOException {
        inbox(other, 3);
        TrustedDirectories both = new TrustedDirectories(own, List.of(other));
        both.create(name(4), new ContextId(0, 4), 2, RING, 1, 0).close();
        Files.setPosixFilePermissions(other, PosixFilePermissions.fromString("rwxrwxrwx"));
        String why = "segment directory " + other + " may be written by other users (rwxrwxrwx); shm maps inboxes "
            + "only from directories its own user alone may write: chmod go-w " + other;
        assertEquals(why, assertThrows(SegmentException.class, () -> both.open(other, name(3))).getMessage());
        TrustedDirectories there = new TrustedDirectories(other, List.of());
        assertEquals(why, assertThrows(SegmentException.class,
            () -> there.create(name(5), new ContextId(0, 5), 2, RING, 1, 0)).getMessage());
        try (var files = Files.list(other)) {
            assertEquals(List.of(other.resolve(name(3))), files.toList(), "the refused inbox's half-made file is gone");
        }
    }

    @Test
    void anotherUsersInboxIsRefused() throws IOException {
        Path file = inbox(own, 2);
        UserPrincipal nobody;
        try {
            nobody = file.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
            Files.setOwner(file, nobody);
        } catch (IOException e) {
            assumeTrue(false, "only a privileged user can give a file away: " + e);
            return;
        }
        assertEquals("shm segment " + file + " belongs to nobody, not to " + Files.getOwner(own).getName()
            + ", the user this context runs as; shm maps only its own user's inboxes", refusal(own, name(2)));
    }

    @Test
    void aFileCutShortOrNotAnInboxIsRefusedSayingWhat() throws IOException {
        Path file = own.resolve(name(2));
        Files.write(file, new byte[100]);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        assertEquals("shm segment " + file + " is truncated: 100 bytes, shorter than the 512-byte header",
            refusal(own, name(2)));
        assertEquals("no shm segment " + own.resolve(name(9)) + " (the context stopped, or this process sees "
            + "another file system there)", refusal(own, name(9)));
    }
}
