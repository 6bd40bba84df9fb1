package io.polylink.method.shm.internal.segment;

import io.polylink.ContextId;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The segment directory, where the contexts of a host that share it keep their inboxes: how it is
 * made and how its files are named. An inbox is named for its owner's context, so nothing in the
 * directory but inboxes and their half-made files is ever opened or removed.
 */
public final class SegmentDirectory {

    /** An inbox: its owner's context id in 32 hex digits, then {@code .inbox}. */
    public static final Pattern INBOX_NAME = Pattern.compile("[0-9a-f]{32}\\.inbox");
    /** An inbox being made, not yet renamed into place; group 1 is the id of the process making it. */
    public static final Pattern TEMPORARY_NAME = Pattern.compile("[0-9a-f]{32}\\.inbox\\.(\\d{1,19})\\.tmp");

    private SegmentDirectory() {}

    /**
     * Makes the directory, open to this user alone, if it is missing.
     *
     * @throws IOException if it cannot be made
     */
    public static void prepare(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            Files.createDirectories(directory,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
    }

    /** @return the file name of {@code owner}'s inbox */
    public static String inboxName(ContextId owner) {
        return HexFormat.of().formatHex(ByteBuffer.allocate(16).putLong(owner.high()).putLong(owner.low()).array())
            + ".inbox";
    }

    /** @return the name under which this process makes {@code inbox} before renaming it into place */
    static String temporaryName(String inbox) {
        return inbox + "." + ProcessHandle.current().pid() + ".tmp";
    }
}
