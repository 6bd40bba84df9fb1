package io.polylink.method.shm.internal.liveness;

import static io.polylink.method.shm.internal.segment.InboxLayout.*;

import io.polylink.method.shm.internal.segment.SegmentDirectory;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;

/**
 * Removes what killed contexts left in the segment directory: an inbox whose owner process is gone
 * and whose heartbeat is older than the failure timeout, and half-made files of dead processes.
 * A file that is not provably dead (owner alive, recent heartbeat, unreadable header) is left
 * alone: a live segment is never touched. What was removed is logged, and files that look wrong
 * but were left, with why.
 */
public final class StaleSegments {

    private static final System.Logger LOG = System.getLogger("io.polylink.method.shm");

    private StaleSegments() {}

    /** @throws IOException if the directory cannot be listed */
    public static void clean(Path directory, long failureTimeoutMs) throws IOException {
        List<Path> removed = new ArrayList<>();
        List<String> left = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                Matcher temporary = SegmentDirectory.TEMPORARY_NAME.matcher(name);
                if (temporary.matches()) {
                    if (!Liveness.alive(Long.parseLong(temporary.group(1)), 0) && Files.deleteIfExists(file)) {
                        removed.add(file);
                    }
                } else if (SegmentDirectory.INBOX_NAME.matcher(name).matches()) {
                    String why = dead(file, failureTimeoutMs);
                    if (why == null && Files.deleteIfExists(file)) {
                        removed.add(file);
                    } else if (why != null && !why.isEmpty()) {
                        left.add(file + ": " + why);
                    }
                }
            }
        }
        if (!removed.isEmpty()) {
            LOG.log(Level.INFO, "removed " + removed.size() + " stale shm segment(s) of dead contexts: " + removed);
        }
        left.forEach(line -> LOG.log(Level.WARNING, "shm segment " + line));
    }

    /** @return {@code null} if dead, "" if alive, otherwise why it cannot be judged */
    private static String dead(Path file, long failureTimeoutMs) {
        ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.nativeOrder());
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            while (header.hasRemaining() && channel.read(header) > 0) {
                // the header only
            }
        } catch (IOException e) {
            return "unreadable (" + e.getMessage() + "), left alone";
        }
        if (header.hasRemaining()) {
            return "truncated to " + header.position() + " bytes, left alone";
        }
        if (header.getLong(MAGIC_OFFSET) != MAGIC) {
            return "not a Polylink inbox, left alone";
        }
        long pid = header.getLong(OWNER_PID_OFFSET);
        long start = header.getLong(OWNER_START_OFFSET);
        long beat = header.getLong(HEARTBEAT_MILLIS_OFFSET);
        boolean stale = System.currentTimeMillis() - beat > failureTimeoutMs;
        return !Liveness.alive(pid, start) && stale ? null : "";
    }
}
