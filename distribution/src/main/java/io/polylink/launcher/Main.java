package io.polylink.launcher;

import java.util.Arrays;

/** {@code bin/polylink}: dispatches to a command. */
public final class Main {

    private static final String USAGE = """
        usage: polylink <command> [options]

        commands:
          node     run one context in a Felix framework (see: polylink node --help)

        Every command takes --help.""";

    private Main() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
            System.out.println(USAGE);
            System.exit(args.length == 0 ? 2 : 0);
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "node" -> System.exit(Node.run(rest));
            default -> {
                System.err.println("polylink: unknown command '" + args[0] + "'\n" + USAGE);
                System.exit(2);
            }
        }
    }
}
