package io.polylink.launcher;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * The options of the commands about one node: {@code node}, {@code start}, {@code stop} and
 * {@code status}. Each command takes its own subset of them.
 *
 * @param name the node's name; {@code null} if none was given and the command has no default
 * @param conf the folder given with {@code --conf}, or {@code null} for the distribution's conf/
 * @param keepState whether {@code --keep-state} was given
 * @param daemon whether {@code --daemon} was given
 * @param timeout {@code --timeout}, or the command's default
 */
record NodeArgs(String name, Path conf, boolean keepState, boolean daemon, Duration timeout) {

    private static final String NAME_PATTERN = "[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}";

    /**
     * The options of {@code polylink COMMAND}, or its answer: the help for {@code --help}, the
     * problem and the help for a bad option.
     *
     * @param command the command, which messages start with
     * @param help the command's help text
     * @throws Answered if the command line was answered; then nothing is left to do
     */
    static NodeArgs of(String command, String help, String[] args, Set<String> accepted, String defaultName,
            Duration defaultTimeout) throws Answered {
        NodeArgs options;
        try {
            options = parse(args, accepted, defaultName, defaultTimeout);
        } catch (IllegalArgumentException e) {
            System.err.println("polylink " + command + ": " + e.getMessage() + "\n" + help);
            throw new Answered(2);
        }
        if (options == null) {
            System.out.println(help);
            throw new Answered(0);
        }
        return options;
    }

    /**
     * @param accepted the options the command takes besides {@code --help}
     * @param defaultName the name without {@code --name}; may be null
     * @param defaultTimeout the timeout without {@code --timeout}; may be null
     * @return the options, or {@code null} if {@code --help} was asked for
     * @throws IllegalArgumentException naming the option that is wrong and why
     */
    static NodeArgs parse(String[] args, Set<String> accepted, String defaultName, Duration defaultTimeout) {
        String name = defaultName;
        Path conf = null;
        boolean keepState = false;
        boolean daemon = false;
        Duration timeout = defaultTimeout;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--help") || option.equals("-h")) {
                return null;
            }
            if (!accepted.contains(option)) {
                throw new IllegalArgumentException("unknown option '" + option + "'");
            }
            switch (option) {
                case "--name" -> name = checkedName(Options.value(args, ++i, option));
                case "--conf" -> conf = Path.of(Options.value(args, ++i, option)).toAbsolutePath().normalize();
                case "--keep-state" -> keepState = true;
                case "--daemon" -> daemon = true;
                case "--timeout" -> timeout = Duration.ofSeconds(Options.number(option, Options.value(args, ++i, option),
                    1, 3600));
            }
        }
        return new NodeArgs(name, conf, keepState, daemon, timeout);
    }

    private static String checkedName(String name) {
        if (!name.matches(NAME_PATTERN)) {
            throw new IllegalArgumentException("invalid node name '" + name + "': use up to 128 letters, digits, "
                + "'.', '_' and '-', not starting with '.'");
        }
        return name;
    }
}
