package io.polylink.bench.internal.mpi;

import io.polylink.bench.internal.Sizes;
import io.polylink.bench.internal.pingpong.Spread;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The results of {@code bench mpi} as tables, target verdicts and CSV. A figure is the median
 * over the runs, with their range; a ratio is the median of each run's own ratio, Polylink over
 * Open MPI on the same kind of link, so that a slow spell of the machine in one run does not pass
 * for a difference between them.
 *
 * @param runs by run: each implementation's results in that run
 */
record MpiReport(List<Map<String, List<MpiResult>>> runs) {

    /** Polylink's implementations and the Open MPI one each is judged against. */
    static final List<String[]> PAIRS = List.of(new String[] {PolylinkRanks.SHM, OpenMpi.VADER},
        new String[] {PolylinkRanks.TCP, OpenMpi.TCP});

    /** The targets: test, size, Polylink's implementation, bound, whether at most (else at least). */
    private record Target(String test, int size, String impl, double bound, boolean atMost) {}

    private static final List<Target> TARGETS = List.of(
        new Target("latency", 8, PolylinkRanks.SHM, 2.0, true),
        new Target("latency", 8, PolylinkRanks.TCP, 1.2, true),
        new Target("bw", 1 << 20, PolylinkRanks.SHM, 0.8, false),
        new Target("bw", 1 << 20, PolylinkRanks.TCP, 0.8, false));

    /** The collectives' tests, each measured among each number of ranks as {@code TEST_RANKS}. */
    static final List<String> COLLECTIVES = List.of("barrier", "bcast", "reduce", "allreduce", "alltoall");

    /** @return the targets of the point-to-point tests, and those of bcast and allreduce among each of {@code ranks} */
    private static List<Target> targets(List<Integer> ranks) {
        List<Target> all = new ArrayList<>(TARGETS);
        for (String test : List.of("bcast", "allreduce")) {
            for (int r : ranks) {
                all.add(new Target(test + "_" + r, 8, PolylinkRanks.SHM, 1.5, true));
                for (int size : List.of(64 << 10, 1 << 20, 4 << 20)) {
                    all.add(new Target(test + "_" + r, size, PolylinkRanks.SHM, 1.0, true));
                }
            }
        }
        return all;
    }

    void csv(PrintStream out) {
        out.println(MpiResult.CSV_HEADER);
        for (int run = 0; run < runs.size(); run++) {
            for (List<MpiResult> results : runs.get(run).values()) {
                for (MpiResult r : results) {
                    out.println(r.csv(run + 1));
                }
            }
        }
    }

    /** Prints the tables of {@code options}' tests and the targets. */
    void table(MpiOptions options, PrintStream out) {
        List<String> impls = options.impls();
        if (options.tests().contains("latency")) {
            out.println("\nlatency, us one way (round trip / 2): median over the runs (min-max)");
            sizeTable("latency", options.sizes(), impls, out);
        }
        if (options.tests().contains("bw")) {
            out.println("\nbandwidth, MB/s: windows of " + options.window() + " non-blocking sends, median (min-max)");
            sizeTable("bw", options.sizes().stream().filter(s -> s > 0).toList(), impls, out);
        }
        if (options.tests().contains("overlap")) {
            out.println("\noverlap: " + Sizes.label(options.overlapSize()) + " iSend/iRecv, computation between post and "
                + "wait; us in wait per iteration, sender / receiver, medians");
            StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-12s", "compute us"));
            impls.forEach(i -> head.append(String.format(Locale.ROOT, "%24s", i)));
            out.println(head);
            for (int us : options.compute()) {
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-12d", us));
                for (String impl : impls) {
                    String send = median(figure(impl, "overlap_send_wait", options.overlapSize(), us));
                    String recv = median(figure(impl, "overlap_recv_wait", options.overlapSize(), us));
                    row.append(String.format(Locale.ROOT, "%24s", send + " / " + recv));
                }
                out.println(row);
            }
        }
        for (String test : COLLECTIVES) {
            if (options.tests().contains(test)) {
                for (int r : options.ranks()) {
                    out.println("\n" + test + ", " + r + " ranks, us per call (the ranks' average): median (min-max)");
                    sizeTable(test + "_" + r, test.equals("barrier") ? List.of(0)
                        : options.sizes().stream().filter(size -> size >= 8).toList(), impls, out);
                }
            }
        }
        out.println("\ntargets (each the median over the runs of the run's own ratio):");
        for (Target t : targets(options.ranks())) {
            if (!options.tests().contains(t.test().replaceAll("_\\d+$", "")) && !t.test().equals("bw")
                    && !t.test().equals("latency")) {
                continue;
            }
            String baseline = baseline(t.impl());
            String what = String.format(Locale.ROOT, "  %-7s %-11s %s %s %.1f x %s:", Sizes.label(t.size()),
                t.test().equals("bw") ? "bandwidth" : t.test(), t.impl(), t.atMost() ? "<=" : ">=", t.bound(), baseline);
            Optional<Spread> ratio = ratio(t.impl(), baseline, t.test(), t.size(), 0);
            if (ratio.isEmpty()) {
                out.println(what + " not measured (run both, and the size)");
                continue;
            }
            Spread r = ratio.get();
            boolean met = t.atMost() ? r.median() <= t.bound() : r.median() >= t.bound();
            out.println(String.format(Locale.ROOT, "%-58s %.2f x  %s  (%.2f-%.2f; met in %d of %d runs)", what,
                r.median(), met ? "met" : "MISSED", r.min(), r.max(), r.within(t.bound(), t.atMost()), r.runs()));
        }
    }

    private void sizeTable(String test, List<Integer> sizes, List<String> impls, PrintStream out) {
        List<String[]> pairs = new ArrayList<>();
        for (String[] p : PAIRS) {
            if (impls.contains(p[0]) && impls.contains(p[1])) {
                pairs.add(p);
            }
        }
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-8s", "size"));
        impls.forEach(i -> head.append(String.format(Locale.ROOT, "%26s", i)));
        pairs.forEach(p -> head.append(String.format(Locale.ROOT, "%9s", "x " + p[1].substring(p[1].indexOf(':') + 1))));
        out.println(head);
        for (int size : sizes) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-8s", Sizes.label(size)));
            for (String impl : impls) {
                row.append(String.format(Locale.ROOT, "%26s", figure(impl, test, size, 0)
                    .map(s -> String.format(Locale.ROOT, "%s (%s-%s)", number(s.median()), number(s.min()), number(s.max())))
                    .orElse("-")));
            }
            for (String[] p : pairs) {
                row.append(String.format(Locale.ROOT, "%9s", ratio(p[0], p[1], test, size, 0)
                    .map(s -> String.format(Locale.ROOT, "%.2f", s.median())).orElse("-")));
            }
            out.println(row);
        }
    }

    /** @return the figure of {@code impl} over the runs that measured it */
    Optional<Spread> figure(String impl, String test, int size, int compute) {
        return Spread.over(runs, run -> find(run, impl, test, size, compute));
    }

    /** @return {@code impl}'s figure over {@code baseline}'s, run by run */
    Optional<Spread> ratio(String impl, String baseline, String test, int size, int compute) {
        return Spread.over(runs, run -> {
            OptionalDouble a = find(run, impl, test, size, compute);
            OptionalDouble b = find(run, baseline, test, size, compute);
            return a.isPresent() && b.isPresent() && b.getAsDouble() > 0
                ? OptionalDouble.of(a.getAsDouble() / b.getAsDouble()) : OptionalDouble.empty();
        });
    }

    private static OptionalDouble find(Map<String, List<MpiResult>> run, String impl, String test, int size, int compute) {
        return run.getOrDefault(impl, List.of()).stream().filter(r -> r.is(test, size, compute))
            .mapToDouble(MpiResult::value).findFirst();
    }

    /** @return the Open MPI implementation {@code impl} is judged against */
    static String baseline(String impl) {
        return PAIRS.stream().filter(p -> p[0].equals(impl)).map(p -> p[1]).findFirst().orElseThrow();
    }

    private static String median(Optional<Spread> s) {
        return s.map(x -> number(x.median())).orElse("-");
    }

    /** @return three significant digits, at most two decimals */
    static String number(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : v >= 10 ? String.format(Locale.ROOT, "%.1f", v)
            : String.format(Locale.ROOT, "%.2f", v);
    }
}
