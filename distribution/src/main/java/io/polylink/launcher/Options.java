package io.polylink.launcher;

/** Reading the values of command-line options; a problem is an IllegalArgumentException naming the option. */
final class Options {

    private Options() {}

    /** @return {@code args[i]}, the value of {@code option} */
    static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    static int number(String option, String text, int min, int max) {
        try {
            int n = Integer.parseInt(text);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException notANumber) {
            // said below
        }
        throw new IllegalArgumentException(option + " takes a whole number from " + min + " to " + max + ", not '"
            + text + "'");
    }
}
