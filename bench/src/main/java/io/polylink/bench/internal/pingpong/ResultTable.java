package io.polylink.bench.internal.pingpong;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/**
 * Prints results as CSV or as a table beside the raw floor of the same run: for each size and
 * figure, the best of the raw implementations (lower round trip, higher MB/s), since no single
 * raw threading wins every figure.
 */
final class ResultTable {

    static final List<String> RAW = List.of(Peers.RAW_NIO, Peers.RAW_NIO_BLOCKING);
    static final String PEER = Peers.NETTY_NIO;

    private ResultTable() {}

    /** Exactly the header and one row per result, nothing else. */
    static void csv(List<SizeResult> results, PrintStream out) {
        out.println(SizeResult.CSV_HEADER);
        for (SizeResult r : results) {
            out.println(r.csvRow());
        }
    }

    /**
     * One block per size, one row per implementation in the order run; ratios to the raw floor
     * and, for polylink, to netty-nio. Of round trips lower is better, of MB/s higher.
     */
    static void table(List<SizeResult> results, PingPongOptions options, PrintStream out) {
        out.printf(Locale.ROOT, "%-7s %-16s %6s %9s %9s %8s %8s %8s %8s %9s %9s%n", "size", "impl", "count",
            "p50 us", "p99 us", "MB/s", "p50", "p99", "MB/s", "p50", "MB/s");
        out.printf(Locale.ROOT, "%-7s %-16s %6s %9s %9s %8s %8s %8s %8s %9s %9s%n", "", "", "", "", "", "",
            "x raw", "x raw", "x raw", "x netty", "x netty");
        for (int size : options.sizes()) {
            Floor raw = Floor.of(results, size);
            Optional<SizeResult> netty = find(results, PEER, size);
            for (String impl : options.impls()) {
                Optional<SizeResult> found = find(results, impl, size);
                if (found.isEmpty()) {
                    out.printf(Locale.ROOT, "%-7s %-16s (failed, see stderr)%n", size(size), impl);
                    continue;
                }
                SizeResult r = found.get();
                boolean polylink = impl.startsWith("polylink:");
                out.printf(Locale.ROOT, "%-7s %-16s %6d %9.2f %9.2f %8.1f %8s %8s %8s %9s %9s%n", size(size), impl,
                    r.count(), r.p50Nanos() / 1e3, r.p99Nanos() / 1e3, r.mbPerSecond(),
                    ratio(r.p50Nanos(), raw.p50), ratio(r.p99Nanos(), raw.p99), ratio(r.mbPerSecond(), raw.mbPerSecond),
                    polylink ? ratio(r.p50Nanos(), netty.map(SizeResult::p50Nanos)) : "",
                    polylink ? ratio(r.mbPerSecond(), netty.map(SizeResult::mbPerSecond)) : "");
            }
        }
        targets(results, options, out);
    }

    /** The best raw figures of one size; empty where no raw implementation ran. */
    private record Floor(OptionalDouble p50, OptionalDouble p99, OptionalDouble mbPerSecond) {
        static Floor of(List<SizeResult> results, int size) {
            List<SizeResult> raw = results.stream().filter(r -> r.size() == size && RAW.contains(r.impl())).toList();
            return new Floor(min(raw, SizeResult::p50Nanos), min(raw, SizeResult::p99Nanos),
                raw.stream().mapToDouble(SizeResult::mbPerSecond).max());
        }

        private static OptionalDouble min(List<SizeResult> raw, ToDoubleFunction<SizeResult> figure) {
            return raw.stream().mapToDouble(figure).min();
        }
    }

    /** The targets for each polylink implementation, as measured in this run. */
    private static void targets(List<SizeResult> results, PingPongOptions options, PrintStream out) {
        for (String impl : options.impls()) {
            if (!impl.startsWith("polylink:")) {
                continue;
            }
            out.println();
            out.println("targets for " + impl + " (raw: the best raw figure of the run):");
            for (int size : options.sizes()) {
                Optional<SizeResult> found = find(results, impl, size);
                if (found.isEmpty()) {
                    continue;
                }
                SizeResult r = found.get();
                Floor raw = Floor.of(results, size);
                Optional<SizeResult> netty = find(results, PEER, size);
                if (size <= 1024 && raw.p50().isPresent()) {
                    double x = r.p50Nanos() / raw.p50().getAsDouble();
                    out.printf(Locale.ROOT, "  %-7s median round trip <= 1.10 x raw: %5.2f x  %s%n", size(size),
                        x, x <= 1.10 ? "met" : "MISSED");
                }
                if (size <= 1024 && netty.isPresent()) {
                    double x = (double) r.p50Nanos() / netty.get().p50Nanos();
                    out.printf(Locale.ROOT, "  %-7s median round trip <= netty-nio: %5.2f x  %s%n", size(size),
                        x, x <= 1.0 ? "met" : "MISSED");
                }
                if (size >= 64 << 10 && raw.mbPerSecond().isPresent()) {
                    double x = r.mbPerSecond() / raw.mbPerSecond().getAsDouble();
                    out.printf(Locale.ROOT, "  %-7s MB/s >= 0.80 x raw:             %5.2f x  %s%n", size(size),
                        x, x >= 0.80 ? "met" : "MISSED");
                }
            }
        }
    }

    private static Optional<SizeResult> find(List<SizeResult> results, String impl, int size) {
        return results.stream().filter(r -> r.impl().equals(impl) && r.size() == size).findFirst();
    }

    private static String ratio(double value, Optional<? extends Number> baseline) {
        return ratio(value, baseline.isEmpty() ? OptionalDouble.empty()
            : OptionalDouble.of(baseline.get().doubleValue()));
    }

    private static String ratio(double value, OptionalDouble baseline) {
        if (baseline.isEmpty() || baseline.getAsDouble() == 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.2f", value / baseline.getAsDouble());
    }

    /** @return {@code 16 B}, {@code 64 KiB}, {@code 1 MiB}; exact, else bytes */
    static String size(int bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }
}
