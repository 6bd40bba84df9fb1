package io.polylink.bench.internal.transforms;

import io.polylink.bench.internal.Sizes;
import java.util.List;

/**
 * The transforms command's arguments.
 *
 * @param sizes message sizes in bytes
 * @param seconds wall time of each measuring round
 * @param rounds alternating rounds per side; the median counts
 * @param cipher the aead cipher, for the transform and the raw side alike
 * @param csv print CSV instead of the table
 */
record TransformsOptions(List<Integer> sizes, double seconds, int rounds, String cipher, boolean csv) {

    static final List<Integer> SIZES = List.of(256, 4 << 10, 64 << 10, 1 << 20);
    static final List<String> CIPHERS = List.of("aes-256-gcm", "chacha20-poly1305");
    /** Below the core's default maximum message size, with room for each transform's own bytes. */
    static final int MAX_SIZE = 4 << 20;

    TransformsOptions {
        sizes = List.copyOf(sizes);
    }

    /** @throws IllegalArgumentException naming the argument that is wrong */
    static TransformsOptions parse(String[] args) {
        List<Integer> sizes = SIZES;
        double seconds = 1.0;
        int rounds = 5;
        String cipher = CIPHERS.get(0);
        boolean csv = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--csv" -> csv = true;
                case "--sizes" -> sizes = Sizes.parse(value(args, ++i, arg), arg, MAX_SIZE);
                case "--seconds" -> seconds = seconds(value(args, ++i, arg));
                case "--rounds" -> rounds = rounds(value(args, ++i, arg));
                case "--cipher" -> {
                    cipher = value(args, ++i, arg);
                    if (!CIPHERS.contains(cipher)) {
                        throw new IllegalArgumentException("--cipher " + cipher + " is not one of " + String.join(", ", CIPHERS));
                    }
                }
                default -> throw new IllegalArgumentException("unknown argument '" + arg + "'");
            }
        }
        return new TransformsOptions(sizes, seconds, rounds, cipher, csv);
    }

    private static String value(String[] args, int i, String name) {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new IllegalArgumentException(name + " needs a value");
        }
        return args[i];
    }

    private static double seconds(String text) {
        try {
            double s = Double.parseDouble(text);
            if (!(s >= 0.001 && s <= 600)) {
                throw new IllegalArgumentException("--seconds " + text + " is outside 0.001..600");
            }
            return s;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--seconds '" + text + "' is not a number");
        }
    }

    private static int rounds(String text) {
        try {
            int n = Integer.parseInt(text);
            if (n < 1 || n > 1000) {
                throw new IllegalArgumentException("--rounds " + text + " is outside 1..1000");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--rounds '" + text + "' is not a whole number");
        }
    }
}
