package io.polylink.bench.internal.pingpong;

import io.polylink.bench.internal.Sizes;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/**
 * Prints results as CSV or as a table beside the raw floor of the same run: for each size and
 * figure, the best raw implementation of the same family (lower round trip, higher MB/s): raw-nio
 * and raw-nio-blocking for implementations over TCP, raw-shm for those through shared memory.
 */
final class ResultTable {

    private ResultTable() {}

    /** Exactly the header and one row per result, nothing else. */
    static void csv(List<SizeResult> results, PrintStream out) {
        out.println(SizeResult.CSV_HEADER);
        for (SizeResult r : results) {
            out.println(r.csvRow());
        }
    }

    /**
     * One block per size, one row per implementation in the order run; ratios to the family's raw
     * floor and, for polylink, to the family's established peer (netty-nio, aeron-ipc). Of round
     * trips lower is better, of MB/s higher.
     */
    static void table(List<SizeResult> results, PingPongOptions options, PrintStream out) {
        out.printf(Locale.ROOT, "%-7s %-18s %6s %9s %9s %8s %8s %8s %8s %8s %8s%n", "size", "impl", "count",
            "p50 us", "p99 us", "MB/s", "p50", "p99", "MB/s", "p50", "MB/s");
        out.printf(Locale.ROOT, "%-7s %-18s %6s %9s %9s %8s %8s %8s %8s %8s %8s%n", "", "", "", "", "", "",
            "x raw", "x raw", "x raw", "x peer", "x peer");
        for (int size : options.sizes()) {
            for (String impl : options.impls()) {
                Optional<SizeResult> found = find(results, impl, size);
                if (found.isEmpty()) {
                    out.printf(Locale.ROOT, "%-7s %-18s (failed, see stderr)%n", size(size), impl);
                    continue;
                }
                SizeResult r = found.get();
                Floor raw = Floor.of(results, impl, size);
                Optional<SizeResult> peer = find(results, Peers.peerOf(impl), size);
                boolean polylink = impl.startsWith("polylink:");
                out.printf(Locale.ROOT, "%-7s %-18s %6d %9.2f %9.2f %8.1f %8s %8s %8s %8s %8s%n", size(size), impl,
                    r.count(), r.p50Nanos() / 1e3, r.p99Nanos() / 1e3, r.mbPerSecond(),
                    ratio(r.p50Nanos(), raw.p50), ratio(r.p99Nanos(), raw.p99), ratio(r.mbPerSecond(), raw.mbPerSecond),
                    polylink ? ratio(r.p50Nanos(), peer.map(SizeResult::p50Nanos)) : "",
                    polylink ? ratio(r.mbPerSecond(), peer.map(SizeResult::mbPerSecond)) : "");
            }
        }
        out.println();
        out.println("x raw: / the best raw figure of the family (tcp: raw-nio, raw-nio-blocking; shm: raw-shm); "
            + "x peer: / netty-nio (tcp) or aeron-ipc (shm)");
        targets(results, options, out);
    }

    /** The best raw figures of one family and size; empty where no raw implementation of it ran. */
    private record Floor(OptionalDouble p50, OptionalDouble p99, OptionalDouble mbPerSecond) {
        static Floor of(List<SizeResult> results, String impl, int size) {
            List<String> family = Peers.rawFloor(impl);
            List<SizeResult> raw = results.stream().filter(r -> r.size() == size && family.contains(r.impl())).toList();
            return new Floor(min(raw, SizeResult::p50Nanos), min(raw, SizeResult::p99Nanos),
                raw.stream().mapToDouble(SizeResult::mbPerSecond).max());
        }

        private static OptionalDouble min(List<SizeResult> raw, ToDoubleFunction<SizeResult> figure) {
            return raw.stream().mapToDouble(figure).min();
        }
    }

    /** The issues' targets for each polylink implementation, as measured in this run. */
    private static void targets(List<SizeResult> results, PingPongOptions options, PrintStream out) {
        for (String impl : options.impls()) {
            if (!impl.startsWith("polylink:")) {
                continue;
            }
            out.println();
            switch (impl) {
                case Peers.POLYLINK_TCP -> tcpTargets(results, options, out);
                case Peers.POLYLINK_SHM -> shmTargets(results, options, out);
                default -> stackCost(impl, results, options, out);
            }
        }
    }

    private static void tcpTargets(List<SizeResult> results, PingPongOptions options, PrintStream out) {
        String impl = Peers.POLYLINK_TCP;
        out.println("targets for " + impl + " (raw: the best raw tcp figure of the run):");
        for (int size : options.sizes()) {
            Optional<SizeResult> found = find(results, impl, size);
            if (found.isEmpty()) {
                continue;
            }
            SizeResult r = found.get();
            Floor raw = Floor.of(results, impl, size);
            Optional<SizeResult> netty = find(results, Peers.NETTY_NIO, size);
            if (size <= 1024 && raw.p50().isPresent()) {
                target(out, size, "median round trip <= 1.10 x raw:", r.p50Nanos() / raw.p50().getAsDouble(), 1.10, true);
            }
            if (size <= 1024 && netty.isPresent()) {
                target(out, size, "median round trip <= netty-nio:", (double) r.p50Nanos() / netty.get().p50Nanos(), 1.0, true);
            }
            if (size >= 64 << 10 && raw.mbPerSecond().isPresent()) {
                target(out, size, "MB/s >= 0.80 x raw:", r.mbPerSecond() / raw.mbPerSecond().getAsDouble(), 0.80, false);
            }
        }
    }

    private static void shmTargets(List<SizeResult> results, PingPongOptions options, PrintStream out) {
        String impl = Peers.POLYLINK_SHM;
        out.println("targets for " + impl + " (issue 4; spin mode is --idle spin):");
        for (int size : options.sizes()) {
            Optional<SizeResult> found = find(results, impl, size);
            if (found.isEmpty()) {
                continue;
            }
            SizeResult r = found.get();
            Optional<SizeResult> aeron = find(results, Peers.AERON_IPC, size);
            Optional<SizeResult> raw = find(results, Peers.RAW_SHM, size);
            if (size <= 256 && aeron.isPresent()) {
                target(out, size, "median round trip <= 1.5 x aeron-ipc:", (double) r.p50Nanos() / aeron.get().p50Nanos(),
                    1.5, true);
            }
            if (size >= 64 << 10 && raw.isPresent()) {
                target(out, size, "MB/s >= 0.50 x raw-shm:", r.mbPerSecond() / raw.get().mbPerSecond(), 0.50, false);
            }
        }
    }

    /** A transform stack has no ping-pong target; what it costs over plain tcp is reported. */
    private static void stackCost(String impl, List<SizeResult> results, PingPongOptions options, PrintStream out) {
        out.println("cost of " + impl + " over " + Peers.POLYLINK_TCP + " (issue 5 asks for the figure, sets no target):");
        if (!options.impls().contains(Peers.POLYLINK_TCP)) {
            out.println("  (" + Peers.POLYLINK_TCP + " was not in this run)");
        }
        for (int size : options.sizes()) {
            Optional<SizeResult> found = find(results, impl, size);
            Optional<SizeResult> tcp = find(results, Peers.POLYLINK_TCP, size);
            if (found.isEmpty() || tcp.isEmpty()) {
                continue;
            }
            SizeResult r = found.get();
            SizeResult t = tcp.get();
            out.printf(Locale.ROOT, "  %-7s median round trip %5.2f x (%+.2f us), MB/s %5.2f x%n", size(size),
                (double) r.p50Nanos() / t.p50Nanos(), (r.p50Nanos() - t.p50Nanos()) / 1e3,
                t.mbPerSecond() == 0 ? 0 : r.mbPerSecond() / t.mbPerSecond());
        }
    }

    /** One target line: the figure and whether it is met (at most {@code bound} if {@code atMost}, else at least). */
    private static void target(PrintStream out, int size, String what, double x, double bound, boolean atMost) {
        boolean met = atMost ? x <= bound : x >= bound;
        out.printf(Locale.ROOT, "  %-7s %-38s %5.2f x  %s%n", size(size), what, x, met ? "met" : "MISSED");
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
        return Sizes.label(bytes);
    }
}
