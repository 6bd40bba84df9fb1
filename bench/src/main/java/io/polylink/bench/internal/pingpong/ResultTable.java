package io.polylink.bench.internal.pingpong;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Prints results as CSV or as a table beside the raw-nio baseline of the same run. */
final class ResultTable {

    static final String BASELINE = Peers.RAW_NIO;
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
     * One block per size, one row per implementation in the order run; ratios to raw-nio (and,
     * for polylink, to netty-nio) where those ran. {@code x raw} of round trips: lower is better;
     * of MB/s: higher is better.
     */
    static void table(List<SizeResult> results, PingPongOptions options, PrintStream out) {
        out.printf(Locale.ROOT, "%-8s %-17s %7s %9s %9s %9s %9s %8s %8s %9s %9s%n", "size", "impl", "count",
            "p50 us", "p99 us", "MB/s", "p50 xraw", "p99 xraw", "MB/s xraw", "p50 xnetty", "MB/s xnetty");
        for (int size : options.sizes()) {
            Optional<SizeResult> raw = find(results, BASELINE, size);
            Optional<SizeResult> netty = find(results, PEER, size);
            for (String impl : options.impls()) {
                Optional<SizeResult> found = find(results, impl, size);
                if (found.isEmpty()) {
                    out.printf(Locale.ROOT, "%-8s %-17s (failed, see stderr)%n", size(size), impl);
                    continue;
                }
                SizeResult r = found.get();
                boolean polylink = impl.startsWith("polylink:");
                out.printf(Locale.ROOT, "%-8s %-17s %7d %9.2f %9.2f %9.1f %9s %8s %8s %9s %9s%n", size(size), impl,
                    r.count(), r.p50Nanos() / 1e3, r.p99Nanos() / 1e3, r.mbPerSecond(),
                    ratio(r.p50Nanos(), raw.map(SizeResult::p50Nanos)),
                    ratio(r.p99Nanos(), raw.map(SizeResult::p99Nanos)),
                    ratio(r.mbPerSecond(), raw.map(SizeResult::mbPerSecond)),
                    polylink ? ratio(r.p50Nanos(), netty.map(SizeResult::p50Nanos)) : "",
                    polylink ? ratio(r.mbPerSecond(), netty.map(SizeResult::mbPerSecond)) : "");
            }
        }
        targets(results, options, out);
    }

    /** The targets for each polylink implementation, as measured in this run. */
    private static void targets(List<SizeResult> results, PingPongOptions options, PrintStream out) {
        for (String impl : options.impls()) {
            if (!impl.startsWith("polylink:")) {
                continue;
            }
            out.println();
            out.println("targets for " + impl + ":");
            for (int size : options.sizes()) {
                Optional<SizeResult> r = find(results, impl, size);
                Optional<SizeResult> raw = find(results, BASELINE, size);
                Optional<SizeResult> netty = find(results, PEER, size);
                if (r.isEmpty()) {
                    continue;
                }
                if (size <= 1024 && raw.isPresent()) {
                    double x = (double) r.get().p50Nanos() / raw.get().p50Nanos();
                    out.printf(Locale.ROOT, "  %-8s median round trip <= 1.10 x raw-nio: %.2f x  %s%n", size(size),
                        x, x <= 1.10 ? "met" : "MISSED");
                }
                if (size <= 1024 && netty.isPresent()) {
                    double x = (double) r.get().p50Nanos() / netty.get().p50Nanos();
                    out.printf(Locale.ROOT, "  %-8s median round trip <= netty-nio:      %.2f x  %s%n", size(size),
                        x, x <= 1.0 ? "met" : "MISSED");
                }
                if (size >= 64 << 10 && raw.isPresent()) {
                    double x = r.get().mbPerSecond() / raw.get().mbPerSecond();
                    out.printf(Locale.ROOT, "  %-8s MB/s >= 0.80 x raw-nio:              %.2f x  %s%n", size(size),
                        x, x >= 0.80 ? "met" : "MISSED");
                }
            }
        }
    }

    private static Optional<SizeResult> find(List<SizeResult> results, String impl, int size) {
        return results.stream().filter(r -> r.impl().equals(impl) && r.size() == size).findFirst();
    }

    private static String ratio(double value, Optional<? extends Number> baseline) {
        if (baseline.isEmpty() || baseline.get().doubleValue() == 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.2f", value / baseline.get().doubleValue());
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
