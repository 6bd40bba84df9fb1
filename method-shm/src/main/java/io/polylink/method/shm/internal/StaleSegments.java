package io.polylink.method.shm.internal;

import static io.polylink.method.shm.internal.InboxLayout.*;

import java.io.IOException;
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
import java.util.regex.Pattern;

/**
 * Removes what killed contexts left in the segment directory: an inbox whose owner process is gone
 * and whose heartbeat is older than the failure timeout, and half-made files of dead processes.
 * A file that is not provably dead (owner alive, recent heartbeat, unreadable header) is left
 * alone: a live segment is never touched.
 */
final class StaleSegments {

    private static final Pattern TEMPORARY = Pattern.compile("[0-9a-f]{32}\\.inbox\\.(\\d{1,19})\\.tmp");

    private StaleSegments() {}

    /** @return the files removed, and lines saying why others were left */
    static Result clean(Path directory, long failureTimeoutMs) throws IOException {
        List<Path> removed = new ArrayList<>();
        List<String> left = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                Matcher temporary = TEMPORARY.matcher(name);
                if (temporary.matches()) {
                    if (!Liveness.alive(Long.parseLong(temporary.group(1)), 0) && Files.deleteIfExists(file)) {
                        removed.add(file);
                    }
                } else if (ShmAddress.INBOX_NAME.matcher(name).matches()) {
                    String why = dead(file, failureTimeoutMs);
                    if (why == null && Files.deleteIfExists(file)) {
                        removed.add(file);
                    } else if (why != null && !why.isEmpty()) {
                        left.add(file + ": " + why);
                    }
                }
            }
        }
        return new Result(removed, left);
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

    /** @param removed deleted files @param left files not provably dead that look wrong, and why */
    record Result(List<Path> removed, List<String> left) {}
}
