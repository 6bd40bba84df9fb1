package io.polylink.bench.internal.pingpong;

import io.polylink.bench.internal.LoadAverage;
import io.polylink.bench.internal.Processors;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code multi} command: Nexus' ppmulti experiment. What does a second method cost the first?
 * The shm round trip between two contexts with only shm, then with tcp installed too and idle,
 * then with a tcp ping-pong running between the same contexts; each case in its own pair of
 * fresh JVMs, the cases interleaved when repeated.
 */
public final class MultiCommand {

    static final String HELP = """
        usage: java -jar polylink-bench.jar multi [--sizes LIST] [--count N] [--warmup N] [--repeat N]
                    [--idle spin|spin-then-block|block] [--driver app|handler] [--wait auto|spin|park|progress]
                    [--csv] [--timeout S] [--jvm-opt OPT]...

        Nexus' ppmulti: the polylink shm round trip between a server and a client process (as
        pingpong's polylink:shm; see pingpong --help for what is timed), in three cases:
          alone     both contexts have only the shm method
          tcp-idle  both also have the tcp method installed (127.0.0.1, its default idle strategy
                    spin-then-block) and idle; the link still chooses shm
          tcp-busy  as tcp-idle, and meanwhile a ping-pong over tcp between the same two contexts
                    (a thread in the client, 1 KiB each way, next ping when the reply came; the
                    server answers on the tcp I/O thread), from before the warm-up to the end
        Each case runs REPEAT times, interleaved (alone, tcp-idle, tcp-busy, alone, ...); per case and
        size the run with the median p50 is shown. Ratios divide by the alone case.

        options:
          --sizes LIST   bytes, k = KiB, m = MiB (default 16,1k)
          --count N      round trips timed per size (default 20000)
          --warmup N     round trips per unmeasured batch, per size, as for pingpong (default 10000)
          --repeat N     runs per case (default 3)
          --idle S       the shm method's idle strategy, in tcp's words as for pingpong (default spin);
                         tcp always runs its default
          --driver, --wait, --timeout, --jvm-opt   as for pingpong
          --csv          print only the CSV header case,size,count,rtt_p50_us,rtt_p99_us,p50_x_alone,p99_x_alone
                         and one row per case and size

        Target: shm round trip with tcp installed and idle <= 1.10 x shm alone.
        """;

    static final String CSV_HEADER = "case,size,count,rtt_p50_us,rtt_p99_us,p50_x_alone,p99_x_alone";
    static final List<Integer> SIZES = List.of(16, 1024);
    static final double IDLE_TARGET = 1.10;

    private MultiCommand() {}

    /** @return the case's short name: alone, tcp-idle, tcp-busy */
    static String caseName(String impl) {
        return switch (impl) {
            case Peers.POLYLINK_SHM -> "alone";
            case Peers.SHM_TCP_IDLE -> "tcp-idle";
            case Peers.SHM_TCP_BUSY -> "tcp-busy";
            default -> throw new IllegalArgumentException("not a multi case: " + impl);
        };
    }

    /**
     * @param out where the table or CSV goes; progress goes to stderr
     * @return the process exit status
     */
    public static int run(String[] args, PrintStream out) throws Exception {
        List<String> rest = new ArrayList<>();
        int repeat = 3;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("-h") || args[i].equals("--help")) {
                out.print(HELP);
                return 0;
            }
            if (args[i].equals("--repeat") && i + 1 < args.length) {
                try {
                    repeat = Integer.parseInt(args[++i]);
                } catch (NumberFormatException e) {
                    repeat = -1;
                }
                if (repeat < 1 || repeat > 100) {
                    System.err.println("multi: --repeat " + args[i] + " is not a whole number in 1..100");
                    System.err.print(HELP);
                    return 2;
                }
            } else {
                rest.add(args[i]);
            }
        }
        PingPongOptions parsed;
        try {
            if (rest.contains("--impl")) {
                throw new IllegalArgumentException("multi runs its own cases; --impl is not for it");
            }
            if (rest.contains("--interleave")) {
                throw new IllegalArgumentException("multi interleaves its cases when repeated; --interleave is not for it");
            }
            parsed = PingPongOptions.parse(rest.toArray(String[]::new));
        } catch (IllegalArgumentException e) {
            System.err.println("multi: " + e.getMessage());
            System.err.print(HELP);
            return 2;
        }
        List<Integer> sizes = rest.contains("--sizes") ? parsed.sizes() : SIZES;
        PingPongOptions options = new PingPongOptions(Peers.MULTI, sizes, parsed.count(), parsed.warmup(), parsed.idle(),
            parsed.await(), parsed.driver(), parsed.csv(), parsed.timeoutSeconds(), 1, false, parsed.jvmOptions());
        int cpus = Runtime.getRuntime().availableProcessors();
        String wait = options.waitOn(cpus);
        String loadBefore = LoadAverage.now();
        System.err.println("multi: load average before: " + loadBefore);
        List<List<SizeResult>> runs = new ArrayList<>();
        boolean failed = false;
        for (int r = 0; r < repeat; r++) {
            List<SizeResult> run = new ArrayList<>();
            for (String impl : Peers.MULTI) {
                try {
                    run.addAll(PingPongCommand.measure(impl, options, wait));
                } catch (Exception e) {
                    failed = true;
                    System.err.println("multi: " + caseName(impl) + " failed: " + e.getMessage());
                }
            }
            runs.add(run);
        }
        List<SizeResult> all = runs.stream().flatMap(List::stream).toList();
        String loadAfter = LoadAverage.now();
        System.err.println("multi: load average after: " + loadAfter);
        List<SizeResult> chosen = medians(all, sizes);
        if (options.csv()) {
            out.println(CSV_HEADER);
            for (int size : sizes) {
                Optional<SizeResult> alone = find(chosen, Peers.POLYLINK_SHM, size);
                for (String impl : Peers.MULTI) {
                    find(chosen, impl, size).ifPresent(r -> out.printf(Locale.ROOT, "%s,%d,%d,%.2f,%.2f,%s,%s%n",
                        caseName(impl), size, r.count(), r.p50Nanos() / 1e3, r.p99Nanos() / 1e3,
                        ratio(r.p50Nanos(), alone.map(SizeResult::p50Nanos)), ratio(r.p99Nanos(), alone.map(SizeResult::p99Nanos))));
                }
            }
        } else {
            out.printf(Locale.ROOT, "multi (Nexus ppmulti) on one host, server and client in separate processes, %s; "
                + "load average (1, 5, 15 min) before %s, after %s%n", Processors.describe(), loadBefore, loadAfter);
            out.printf(Locale.ROOT, "shm idle strategy %s, tcp %s (its default); clients driven by %s; "
                + "each case run %d time(s), the run with the median p50 shown%n", PolylinkNode.shmIdle(options.idle()),
                PolylinkNode.TCP_DEFAULT_IDLE, PingPongCommand.driver(options, wait, cpus), repeat);
            out.println();
            table(chosen, runs, sizes, out);
        }
        return failed ? 1 : 0;
    }

    /** Per case and size, the run with the median p50 of those made. */
    static List<SizeResult> medians(List<SizeResult> all, List<Integer> sizes) {
        List<SizeResult> chosen = new ArrayList<>();
        for (String impl : Peers.MULTI) {
            for (int size : sizes) {
                List<SizeResult> runs = all.stream().filter(r -> r.impl().equals(impl) && r.size() == size)
                    .sorted(Comparator.comparingLong(SizeResult::p50Nanos)).toList();
                if (!runs.isEmpty()) {
                    chosen.add(runs.get(runs.size() / 2));
                }
            }
        }
        return chosen;
    }

    private static void table(List<SizeResult> chosen, List<List<SizeResult>> runs, List<Integer> sizes, PrintStream out) {
        List<SizeResult> all = runs.stream().flatMap(List::stream).toList();
        out.printf(Locale.ROOT, "%-7s %-9s %6s %9s %9s %8s %8s   %s%n", "size", "case", "count", "p50 us", "p99 us",
            "p50", "p99", "p50 of every run, us");
        out.printf(Locale.ROOT, "%-7s %-9s %6s %9s %9s %8s %8s%n", "", "", "", "", "", "x alone", "x alone");
        for (int size : sizes) {
            Optional<SizeResult> alone = find(chosen, Peers.POLYLINK_SHM, size);
            for (String impl : Peers.MULTI) {
                Optional<SizeResult> found = find(chosen, impl, size);
                if (found.isEmpty()) {
                    out.printf(Locale.ROOT, "%-7s %-9s (failed, see stderr)%n", ResultTable.size(size), caseName(impl));
                    continue;
                }
                SizeResult r = found.get();
                String every = String.join(" ", all.stream().filter(x -> x.impl().equals(impl) && x.size() == size)
                    .map(x -> String.format(Locale.ROOT, "%.2f", x.p50Nanos() / 1e3)).toList());
                out.printf(Locale.ROOT, "%-7s %-9s %6d %9.2f %9.2f %8s %8s   %s%n", ResultTable.size(size), caseName(impl),
                    r.count(), r.p50Nanos() / 1e3, r.p99Nanos() / 1e3, ratio(r.p50Nanos(), alone.map(SizeResult::p50Nanos)),
                    ratio(r.p99Nanos(), alone.map(SizeResult::p99Nanos)), every);
            }
        }
        out.println();
        out.println("target: shm round trip with tcp installed and idle <= 1.10 x shm alone; judged on the median "
            + "of each run's ratio (tcp-idle over the alone case just before it), with the range and the best runs beside "
            + "(other processes only ever add time, so best-of shows the floor):");
        for (int size : sizes) {
            Optional<Spread> x = Spread.over(runs,
                run -> ResultTable.to(run, Peers.SHM_TCP_IDLE, Peers.POLYLINK_SHM, size, SizeResult::p50Nanos));
            if (x.isPresent()) {
                Spread ratios = x.get();
                double best = best(all, Peers.SHM_TCP_IDLE, size) / best(all, Peers.POLYLINK_SHM, size);
                out.printf(Locale.ROOT, "  %-7s %5.2f x  %-6s (%.2f-%.2f, met in %d of %d runs; best runs: %.2f x)%n",
                    ResultTable.size(size), ratios.median(), ratios.median() <= IDLE_TARGET ? "met" : "MISSED",
                    ratios.min(), ratios.max(), ratios.within(IDLE_TARGET, true), ratios.runs(), best);
            }
        }
        out.println("(tcp-busy has no target: it shows what a second method's traffic costs on these cores)");
    }

    /** @return the lowest p50 of every run of {@code impl} at {@code size}, in nanoseconds */
    private static double best(List<SizeResult> all, String impl, int size) {
        return all.stream().filter(r -> r.impl().equals(impl) && r.size() == size).mapToLong(SizeResult::p50Nanos)
            .min().orElse(0);
    }

    private static Optional<SizeResult> find(List<SizeResult> results, String impl, int size) {
        return results.stream().filter(r -> r.impl().equals(impl) && r.size() == size).findFirst();
    }

    private static String ratio(long value, Optional<Long> baseline) {
        return baseline.isEmpty() || baseline.get() == 0 ? "-"
            : String.format(Locale.ROOT, "%.2f", (double) value / baseline.get());
    }
}
