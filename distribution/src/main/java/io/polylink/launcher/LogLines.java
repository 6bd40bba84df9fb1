package io.polylink.launcher;

import java.util.regex.Pattern;

/**
 * Tells a node's log records apart from what its shell commands print: the demo's nodes log to
 * their console, in {@link #FORMAT}, and the demo reads both there. It shows warnings and errors
 * and leaves the rest to the node's log file.
 */
final class LogLines {

    /** The demo's nodes' java.util.logging format: level, logger, message, and the exception. */
    static final String FORMAT = "%4$s: %3$s: %5$s%6$s%n";

    private static final Pattern QUIET = Pattern.compile("(INFO|CONFIG|FINE|FINER|FINEST): .*|\\s+at .*|\\s*\\.\\.\\. \\d+ more");

    private LogLines() {}

    /** @return whether a line of a node's console belongs in the demo's output */
    static boolean keep(String line) {
        return !QUIET.matcher(line).matches();
    }
}
