package io.polylink.bench.internal.pingpong;

import io.polylink.bench.internal.Sizes;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Prints results as CSV or as a table beside the raw floor of the same run: for each size and
 * figure, the best raw implementation of the same family (lower round trip, higher MB/s): raw-nio
 * and raw-nio-blocking for implementations over TCP, raw-shm for those through shared memory.
 */
final class ResultTable {

    private ResultTable() {}

    /**
     * Exactly the header and one row per implementation and size, nothing else; over several runs
     * each figure is its median.
     */
    static void csv(List<List<SizeResult>> runs, PrintStream out) {
        out.println(SizeResult.CSV_HEADER);
        runs.stream().flatMap(List::stream).map(r -> List.of(r.impl(), r.size())).distinct().forEach(key -> {
            String impl = (String) key.get(0);
            int size = (Integer) key.get(1);
            SizeResult first = runs.stream().flatMap(List::stream)
                .filter(r -> r.impl().equals(impl) && r.size() == size).findFirst().orElseThrow();
            out.println(SizeResult.csvRow(impl, size, first.count(),
                figure(runs, impl, size, SizeResult::p50Nanos).orElseThrow().median(),
                figure(runs, impl, size, SizeResult::p99Nanos).orElseThrow().median(),
                figure(runs, impl, size, SizeResult::mbPerSecond).orElseThrow().median()));
        });
    }

    /**
     * One block per size, one row per implementation in the order run; ratios to the family's raw
     * floor and, for polylink, to the family's established peer (netty-nio, aeron-ipc). Of round
     * trips lower is better, of MB/s higher. Over several runs a figure is its median over the
     * runs, and a ratio the median of each run's own ratio.
     */
    static void table(List<List<SizeResult>> runs, PingPongOptions options, PrintStream out) {
        out.printf(Locale.ROOT, "%-7s %-18s %6s %9s %9s %8s %8s %8s %8s %8s %8s%n", "size", "impl", "count",
            "p50 us", "p99 us", "MB/s", "p50", "p99", "MB/s", "p50", "MB/s");
        out.printf(Locale.ROOT, "%-7s %-18s %6s %9s %9s %8s %8s %8s %8s %8s %8s%n", "", "", "", "", "", "",
            "x raw", "x raw", "x raw", "x peer", "x peer");
        for (int size : options.sizes()) {
            for (String impl : options.impls()) {
                Optional<SizeResult> found = runs.stream().flatMap(run -> find(run, impl, size).stream()).findFirst();
                if (found.isEmpty()) {
                    out.printf(Locale.ROOT, "%-7s %-18s (failed, see stderr)%n", size(size), impl);
                    continue;
                }
                boolean polylink = impl.startsWith("polylink:");
                String peer = Peers.peerOf(impl);
                out.printf(Locale.ROOT, "%-7s %-18s %6d %9.2f %9.2f %8.1f %8s %8s %8s %8s %8s%n", size(size), impl,
                    found.get().count(), figure(runs, impl, size, SizeResult::p50Nanos).orElseThrow().median() / 1e3,
                    figure(runs, impl, size, SizeResult::p99Nanos).orElseThrow().median() / 1e3,
                    figure(runs, impl, size, SizeResult::mbPerSecond).orElseThrow().median(),
                    ratio(Spread.over(runs, run -> toRaw(run, impl, size, SizeResult::p50Nanos, Floor::p50))),
                    ratio(Spread.over(runs, run -> toRaw(run, impl, size, SizeResult::p99Nanos, Floor::p99))),
                    ratio(Spread.over(runs, run -> toRaw(run, impl, size, SizeResult::mbPerSecond, Floor::mbPerSecond))),
                    polylink ? ratio(Spread.over(runs, run -> to(run, impl, peer, size, SizeResult::p50Nanos))) : "",
                    polylink ? ratio(Spread.over(runs, run -> to(run, impl, peer, size, SizeResult::mbPerSecond))) : "");
            }
        }
        out.println();
        out.println("x raw: / the best raw figure of the family (tcp: raw-nio, raw-nio-blocking; shm: raw-mailbox, raw-shm); "
            + "x peer: / netty-nio (tcp) or aeron-ipc (shm)");
        targets(runs, options, out);
        if (runs.size() > 1) {
            eachRun(runs, options, out);
        }
    }

    /** Each run's own figures, in the order run: what the medians and ranges above came from. */
    private static void eachRun(List<List<SizeResult>> runs, PingPongOptions options, PrintStream out) {
        out.println();
        out.println("each run, in order: round trip p50 us | MB/s ('-': the run failed)");
        for (int size : options.sizes()) {
            for (String impl : options.impls()) {
                StringBuilder p50 = new StringBuilder();
                StringBuilder mbs = new StringBuilder();
                for (List<SizeResult> run : runs) {
                    Optional<SizeResult> r = find(run, impl, size);
                    p50.append(String.format(Locale.ROOT, " %9s",
                        r.map(x -> String.format(Locale.ROOT, "%.2f", x.p50Nanos() / 1e3)).orElse("-")));
                    mbs.append(String.format(Locale.ROOT, " %9s",
                        r.map(x -> String.format(Locale.ROOT, "%.1f", x.mbPerSecond())).orElse("-")));
                }
                out.printf(Locale.ROOT, "%-7s %-18s%s  |%s%n", size(size), impl, p50, mbs);
            }
        }
    }

    /** @return {@code figure} of {@code impl} at {@code size} over the runs that measured it */
    private static Optional<Spread> figure(List<List<SizeResult>> runs, String impl, int size,
                                           ToDoubleFunction<SizeResult> figure) {
        return Spread.over(runs, run -> find(run, impl, size).map(r -> OptionalDouble.of(figure.applyAsDouble(r)))
            .orElse(OptionalDouble.empty()));
    }

    /** @return in one run, {@code impl}'s figure over the best raw one of its family */
    private static OptionalDouble toRaw(List<SizeResult> run, String impl, int size, ToDoubleFunction<SizeResult> figure,
                                        Function<Floor, OptionalDouble> floor) {
        Optional<SizeResult> r = find(run, impl, size);
        OptionalDouble base = floor.apply(Floor.of(run, impl, size));
        return r.isEmpty() || base.isEmpty() || base.getAsDouble() == 0 ? OptionalDouble.empty()
            : OptionalDouble.of(figure.applyAsDouble(r.get()) / base.getAsDouble());
    }

    /** @return in one run, {@code impl}'s figure over {@code baseline}'s */
    static OptionalDouble to(List<SizeResult> run, String impl, String baseline, int size,
                                     ToDoubleFunction<SizeResult> figure) {
        Optional<SizeResult> r = find(run, impl, size);
        Optional<SizeResult> b = find(run, baseline, size);
        if (r.isEmpty() || b.isEmpty() || figure.applyAsDouble(b.get()) == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(figure.applyAsDouble(r.get()) / figure.applyAsDouble(b.get()));
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

    /** The issues' targets for each polylink implementation, as measured in these runs. */
    private static void targets(List<List<SizeResult>> runs, PingPongOptions options, PrintStream out) {
        for (String impl : options.impls()) {
            if (!impl.startsWith("polylink:")) {
                continue;
            }
            out.println();
            switch (impl) {
                case Peers.POLYLINK_TCP -> tcpTargets(runs, options, out);
                case Peers.POLYLINK_SHM -> shmTargets(runs, options, out);
                default -> stackCost(impl, runs, options, out);
            }
        }
    }

    private static void tcpTargets(List<List<SizeResult>> runs, PingPongOptions options, PrintStream out) {
        String impl = Peers.POLYLINK_TCP;
        out.println("targets for " + impl + " (raw: the best raw tcp figure of the run):");
        for (int size : options.sizes()) {
            if (size <= 1024) {
                target(out, size, "median round trip <= 1.10 x raw:",
                    Spread.over(runs, run -> toRaw(run, impl, size, SizeResult::p50Nanos, Floor::p50)), 1.10, true);
                target(out, size, "median round trip <= netty-nio:",
                    Spread.over(runs, run -> to(run, impl, Peers.NETTY_NIO, size, SizeResult::p50Nanos)), 1.0, true);
            }
            if (size >= 64 << 10) {
                target(out, size, "MB/s >= 0.80 x raw:",
                    Spread.over(runs, run -> toRaw(run, impl, size, SizeResult::mbPerSecond, Floor::mbPerSecond)), 0.80,
                    false);
            }
        }
    }

    private static void shmTargets(List<List<SizeResult>> runs, PingPongOptions options, PrintStream out) {
        String impl = Peers.POLYLINK_SHM;
        out.println("targets for " + impl + " (spin mode is --idle spin):");
        for (int size : options.sizes()) {
            if (size <= 256) {
                target(out, size, "median round trip <= 2.0 x raw-mailbox:",
                    Spread.over(runs, run -> to(run, impl, Peers.RAW_MAILBOX, size, SizeResult::p50Nanos)), 2.0, true);
                target(out, size, "median round trip <= 1.5 x aeron-ipc:",
                    Spread.over(runs, run -> to(run, impl, Peers.AERON_IPC, size, SizeResult::p50Nanos)), 1.5, true);
            }
            if (size >= 64 << 10) {
                target(out, size, "MB/s >= 0.50 x raw-shm:",
                    Spread.over(runs, run -> to(run, impl, Peers.RAW_SHM, size, SizeResult::mbPerSecond)), 0.50, false);
            }
        }
    }

    /** A transform stack has no ping-pong target; what it costs over plain tcp is reported. */
    private static void stackCost(String impl, List<List<SizeResult>> runs, PingPongOptions options, PrintStream out) {
        out.println("cost of " + impl + " over " + Peers.POLYLINK_TCP + " (no target; the figure alone):");
        if (!options.impls().contains(Peers.POLYLINK_TCP)) {
            out.println("  (" + Peers.POLYLINK_TCP + " was not in this run)");
        }
        for (int size : options.sizes()) {
            Optional<Spread> p50 = Spread.over(runs, run -> to(run, impl, Peers.POLYLINK_TCP, size, SizeResult::p50Nanos));
            Optional<Spread> extra = Spread.over(runs, run -> difference(run, impl, Peers.POLYLINK_TCP, size));
            Optional<Spread> mbs = Spread.over(runs, run -> to(run, impl, Peers.POLYLINK_TCP, size, SizeResult::mbPerSecond));
            if (p50.isEmpty() || extra.isEmpty()) {
                continue;
            }
            out.printf(Locale.ROOT, "  %-7s median round trip %5.2f x (%+.2f us), MB/s %5.2f x%n", size(size),
                p50.get().median(), extra.get().median() / 1e3, mbs.map(Spread::median).orElse(0.0));
        }
    }

    private static OptionalDouble difference(List<SizeResult> run, String impl, String baseline, int size) {
        Optional<SizeResult> r = find(run, impl, size);
        Optional<SizeResult> b = find(run, baseline, size);
        return r.isEmpty() || b.isEmpty() ? OptionalDouble.empty()
            : OptionalDouble.of(r.get().p50Nanos() - b.get().p50Nanos());
    }

    /**
     * One target line: the figure and whether it is met (at most {@code bound} if {@code atMost},
     * else at least); over several runs the median decides, and the range and count of runs that
     * met it follow. Nothing if no run had the figure.
     */
    private static void target(PrintStream out, int size, String what, Optional<Spread> spread, double bound,
                               boolean atMost) {
        if (spread.isEmpty()) {
            return;
        }
        Spread x = spread.get();
        double median = x.median();
        boolean met = atMost ? median <= bound : median >= bound;
        String runs = x.runs() == 1 ? "" : String.format(Locale.ROOT, "  (%.2f-%.2f; met in %d of %d runs)",
            x.min(), x.max(), x.within(bound, atMost), x.runs());
        out.printf(Locale.ROOT, "  %-7s %-38s %5.2f x  %s%s%n", size(size), what, median, met ? "met" : "MISSED", runs);
    }

    private static Optional<SizeResult> find(List<SizeResult> results, String impl, int size) {
        return results.stream().filter(r -> r.impl().equals(impl) && r.size() == size).findFirst();
    }

    private static String ratio(Optional<Spread> spread) {
        return spread.map(x -> String.format(Locale.ROOT, "%.2f", x.median())).orElse("-");
    }

    /** @return {@code 16 B}, {@code 64 KiB}, {@code 1 MiB}; exact, else bytes */
    static String size(int bytes) {
        return Sizes.label(bytes);
    }
}
