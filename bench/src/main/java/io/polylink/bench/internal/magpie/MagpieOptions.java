package io.polylink.bench.internal.magpie;

import io.polylink.bench.internal.Sizes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The options of {@code bench magpie}.
 *
 * @param experiments which to run: {@code bcast}, {@code selection} or both
 * @param clusters each configuration: {clusters, ranks per cluster}
 * @param sizes the broadcasts' sizes
 * @param selectionSizes the round trips' sizes, for size-dependent selection
 * @param delayMicros the emulated links' one-way delay
 * @param rate the emulated links' bytes per second, each way
 * @param queue the bytes a link's queue holds before it drops
 * @param repeat the timed broadcasts of each algorithm and size
 * @param warmUp the small broadcasts of each algorithm before any is timed
 * @param plogpMax the largest size the links' P-LogP is measured at (larger ones are extrapolated)
 * @param plogpMillis the time per P-LogP parameter and size
 * @param out where the table, CSV and chart go, or {@code null} for nowhere
 */
record MagpieOptions(List<String> experiments, List<int[]> clusters, List<Integer> sizes, List<Integer> selectionSizes,
                     long delayMicros, long rate, long queue, int repeat, int warmUp,
                     int plogpMax, long plogpMillis, Path out) {

    static final String HELP = """
        usage: bench magpie [options]

        Experiments between clusters joined by emulated wide-area links: each cluster a network
        namespace, each pair of clusters joined by a user-space router that delays and paces their
        packets (needs root, ip, gcc and /dev/net/tun; says why and stops without them).

        bcast: for each configuration, the P-LogP model of the wide-area link and of a cluster's link,
        measured; then MagPIe's original broadcast and its two-layer broadcast from rank 0, timed from
        the root's start to the last rank's return, beside the models' estimate of each; and the shape
        MagPIe's heuristic chooses beside the best of an exhaustive search.

        selection: two clusters of one context each; the P-LogP models of tcp and lz4/tcp between them,
        measured; then round trips of each size, zeros and random bytes, from a context that selects
        first-applicable (tcp, the target's first entry) and one that selects by the cost-model policy.

          --experiments L   bcast, selection or both (default bcast)
          --clusters LIST   bcast's configurations, CLUSTERSxRANKS each (default 4x1,4x2)
          --sizes LIST      broadcast sizes (default 1k,4k,16k,64k,256k,1m,4m)
          --selection-sizes LIST  round trip sizes (default 64,1k,16k,256k,1m,4m)
          --delay-ms N      the links' one-way delay (default 10)
          --rate N          the links' bytes per second, each way (default 1000000)
          --queue N         the bytes a link holds queued before it drops (default 262144)
          --repeat N        timed broadcasts per algorithm and size, round trips per policy, payload and
                            size, alternated (default 3)
          --warm-up N       small broadcasts of each algorithm, back to back, before any is timed, so
                            that what the timed ones run is compiled (default 300; each takes about
                            three of the links' delays)
          --plogp-max SIZE  the largest size the links are measured at (default 64k; above it the models
                            go on as between their last two sizes)
          --plogp-ms N      time per P-LogP parameter and size (default 40)
          --out DIR         write magpie.txt, magpie.csv and magpie.svg there""";

    /** @throws IllegalArgumentException naming the option that is wrong */
    static MagpieOptions parse(String... args) {
        List<String> experiments = List.of("bcast");
        List<int[]> clusters = List.of(new int[] {4, 1}, new int[] {4, 2});
        List<Integer> sizes = Sizes.parse("1k,4k,16k,64k,256k,1m,4m", "--sizes", 1 << 30);
        List<Integer> selectionSizes = Sizes.parse("64,1k,16k,256k,1m,4m", "--selection-sizes", 1 << 30);
        long delay = 10_000;
        long rate = 1_000_000;
        long queue = 262_144;
        int repeat = 3;
        int warmUp = 300;
        int plogpMax = 65_536;
        long plogpMillis = 40;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option + " needs a value, or is not an option");
            }
            String value = args[++i];
            switch (option) {
                case "--experiments" -> experiments = experiments(value);
                case "--clusters" -> clusters = clusters(value);
                case "--sizes" -> sizes = Sizes.parse(value, option, 1 << 30);
                case "--selection-sizes" -> selectionSizes = Sizes.parse(value, option, 4 << 20);
                case "--delay-ms" -> delay = number(option, value, 0, 10_000) * 1000;
                case "--rate" -> rate = number(option, value, 1000, 10_000_000_000L);
                case "--queue" -> queue = number(option, value, 1500, 1L << 30);
                case "--repeat" -> repeat = (int) number(option, value, 1, 1000);
                case "--warm-up" -> warmUp = (int) number(option, value, 0, 100_000);
                case "--plogp-max" -> plogpMax = Sizes.parse(value, option, 1 << 26).get(0);
                case "--plogp-ms" -> plogpMillis = number(option, value, 1, 60_000);
                case "--out" -> out = Path.of(value);
                default -> throw new IllegalArgumentException("unknown option '" + option + "'\n" + HELP);
            }
        }
        return new MagpieOptions(experiments, clusters, sizes, selectionSizes, delay, rate, queue, repeat, warmUp,
            plogpMax, plogpMillis, out);
    }

    private static final List<String> EXPERIMENTS = List.of("bcast", "selection");

    private static List<String> experiments(String value) {
        List<String> out = new ArrayList<>();
        for (String item : value.split(",")) {
            if (!EXPERIMENTS.contains(item.strip())) {
                throw new IllegalArgumentException("--experiments item '" + item.strip() + "' is not bcast or selection");
            }
            out.add(item.strip());
        }
        return out;
    }

    private static List<int[]> clusters(String value) {
        List<int[]> out = new ArrayList<>();
        for (String item : value.split(",")) {
            String[] parts = item.strip().split("x");
            try {
                int c = Integer.parseInt(parts[0]);
                int k = Integer.parseInt(parts[1]);
                if (parts.length == 2 && c >= 2 && c <= 32 && k >= 1 && k <= 16) {
                    out.add(new int[] {c, k});
                    continue;
                }
            } catch (RuntimeException notANumber) {
                // said below
            }
            throw new IllegalArgumentException("--clusters item '" + item.strip() + "' is not CLUSTERSxRANKS with 2 to "
                + "32 clusters of 1 to 16 ranks, e.g. 4x2");
        }
        return out;
    }

    private static long number(String option, String value, long min, long max) {
        try {
            long n = Long.parseLong(value.strip());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException notANumber) {
            // said below
        }
        throw new IllegalArgumentException(option + " '" + value + "' is not a whole number from " + min + " to " + max);
    }
}
