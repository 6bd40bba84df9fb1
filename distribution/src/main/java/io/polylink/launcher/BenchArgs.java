package io.polylink.launcher;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * The arguments of {@code polylink bench}: {@code --out} is the launcher's, the command and
 * everything after it go to the bench jar.
 *
 * @param command the bench jar's command, e.g. pingpong
 * @param out where the results go
 * @param passed the command and its options, for the bench jar
 * @param commandHelp whether the command's own help was asked for
 */
record BenchArgs(String command, Path out, List<String> passed, boolean commandHelp) {

    /**
     * @return the arguments, or {@code null} if {@code polylink bench --help} was asked for
     * @throws IllegalArgumentException naming what is wrong
     */
    static BenchArgs parse(String[] args) {
        String command = null;
        Path out = null;
        List<String> passed = new ArrayList<>();
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--out")) {
                out = Path.of(Options.value(args, ++i, arg));
            } else if (command == null && (arg.equals("--help") || arg.equals("-h"))) {
                return null;
            } else if (command == null && arg.startsWith("-")) {
                throw new IllegalArgumentException("unknown option '" + arg + "' (before the command only --out and "
                    + "--help; the command's own options come after it)");
            } else {
                if (command == null) {
                    command = arg;
                }
                help |= arg.equals("--help") || arg.equals("-h");
                passed.add(arg);
            }
        }
        if (command == null) {
            throw new IllegalArgumentException("which benchmark? name a command");
        }
        if (out == null) {
            out = Path.of("polylink-bench-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        }
        return new BenchArgs(command, out, List.copyOf(passed), help);
    }
}
