package io.polylink.bench.internal.swap;

import java.util.ArrayList;
import java.util.List;

/**
 * The swap command's arguments, parsed and checked before any process starts.
 *
 * @param cycles bundle updates per target
 * @param targets what is updated, in order: {@link #TARGETS}
 * @param senders sender threads
 * @param window RSRs a sender may have unechoed
 * @param progress echoes awaited after each update before the next
 * @param size payload bytes per RSR
 * @param csv print CSV instead of the table
 * @param verbose print each update's answer from the node on stderr
 * @param timeoutSeconds bound on each wait: a node's answer, a batch of echoes, the final drain
 * @param jvmOptions extra options for the node's JVM
 */
record SwapOptions(int cycles, List<String> targets, int senders, int window, int progress, int size, boolean csv,
                   boolean verbose, int timeoutSeconds, List<String> jvmOptions) {

    static final List<String> TARGETS = List.of("tcp", "shm", "lz4");
    static final SwapOptions DEFAULTS = new SwapOptions(20, TARGETS, 8, 256, 200, 128, false, false, 60, List.of());

    SwapOptions {
        targets = List.copyOf(targets);
        jvmOptions = List.copyOf(jvmOptions);
    }

    /**
     * @return the options, or {@code null} if help was asked for
     * @throws IllegalArgumentException naming the first bad argument
     */
    static SwapOptions parse(String[] args) {
        SwapOptions d = DEFAULTS;
        int cycles = d.cycles;
        List<String> targets = d.targets;
        int senders = d.senders;
        int window = d.window;
        int progress = d.progress;
        int size = d.size;
        boolean csv = false;
        boolean verbose = false;
        int timeout = d.timeoutSeconds;
        List<String> jvmOptions = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "-h", "--help" -> {
                    return null;
                }
                case "--csv" -> csv = true;
                case "--verbose" -> verbose = true;
                case "--cycles" -> cycles = number(args, ++i, arg, 1, 100_000);
                case "--senders" -> senders = number(args, ++i, arg, 1, 64);
                case "--window" -> window = number(args, ++i, arg, 1, 65_536);
                case "--progress" -> progress = number(args, ++i, arg, 1, 10_000_000);
                case "--size" -> size = number(args, ++i, arg, 0, 1 << 20);
                case "--timeout" -> timeout = number(args, ++i, arg, 1, 3600);
                case "--jvm-opt" -> jvmOptions.add(value(args, ++i, arg));
                case "--targets" -> {
                    targets = List.of(value(args, ++i, arg).split(","));
                    for (String t : targets) {
                        if (!TARGETS.contains(t)) {
                            throw new IllegalArgumentException("--targets: unknown target '" + t + "' (known: "
                                + String.join(", ", TARGETS) + ")");
                        }
                    }
                }
                default -> throw new IllegalArgumentException("unknown option '" + arg + "'");
            }
        }
        return new SwapOptions(cycles, targets, senders, window, progress, size, csv, verbose, timeout, jvmOptions);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static int number(String[] args, int i, String option, int min, int max) {
        String text = value(args, i, option);
        try {
            int n = Integer.parseInt(text);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(option + " " + text + " is not a whole number in " + min + ".." + max);
    }
}
