package io.polylink.launcher;

import java.util.regex.Pattern;

/**
 * Tells a node's log records apart from what its shell commands print: both reach the console the
 * demo reads. A java.util.logging record is a header line (date, class, method) and a line
 * starting with its level; the demo shows warnings and errors and leaves the rest to the log file.
 */
final class LogLines {

    private static final Pattern HEADER = Pattern.compile("[A-Z][a-z]{2} \\d{1,2}, \\d{4} \\d{1,2}:\\d{2}:\\d{2} [AP]M .*");
    private static final Pattern QUIET = Pattern.compile("(INFO|CONFIG|FINE|FINER|FINEST): .*|\\s+at .*|\\s*\\.\\.\\. \\d+ more");

    private LogLines() {}

    /** @return whether a line of a node's console belongs in the demo's output */
    static boolean keep(String line) {
        return !HEADER.matcher(line).matches() && !QUIET.matcher(line).matches();
    }
}
