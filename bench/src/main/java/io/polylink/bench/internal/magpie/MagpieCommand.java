package io.polylink.bench.internal.magpie;

import io.polylink.bench.internal.Sizes;
import io.polylink.mpi.internal.coll.Placement;
import io.polylink.mpi.internal.coll.WideAreaCost;
import io.polylink.plogp.LinkModel;
import io.polylink.plogp.ModelDatabase;
import io.polylink.testkit.EmulatedWan;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/** {@code bench magpie}: see {@link MagpieOptions#HELP}. */
public final class MagpieCommand {

    /** How long one job may take: a 4 MiB broadcast to eight clusters at 1 MB/s takes about half a minute. */
    private static final Duration JOB = Duration.ofMinutes(30);

    private MagpieCommand() {}

    /** One timed broadcast, or one estimate. */
    record Row(String config, int size, String algorithm, double measuredMicros, double estimateMicros) {}

    public static int run(String[] args, PrintStream out) throws Exception {
        MagpieOptions options;
        try {
            if (Arrays.asList(args).contains("--help")) {
                out.println(MagpieOptions.HELP);
                return 0;
            }
            options = MagpieOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench magpie: " + e.getMessage());
            return 2;
        }
        String unavailable = EmulatedWan.unavailable();
        if (unavailable != null) {
            out.println("bench magpie: skipped: " + unavailable + " (it needs root, ip, gcc and /dev/net/tun)");
            return 0;
        }
        Path work = Files.createTempDirectory("polylink-bench-magpie-");
        StringBuilder text = new StringBuilder();
        List<String> csv = new ArrayList<>(List.of("config,size,algorithm,rep,measured_us,estimate_us"));
        List<String> selectionCsv = new ArrayList<>(List.of("size,payload,policy,rep,round_trip_us"));
        List<MagpieChart.Panel> panels = new ArrayList<>();
        List<MagpieChart.Panel> selectionPanels = new ArrayList<>();
        try {
            if (options.experiments().contains("bcast")) {
                for (int[] config : options.clusters()) {
                    run(config[0], config[1], options, work, text, csv, panels, out);
                }
            }
            if (options.experiments().contains("selection")) {
                SelectionExperiment.run(options, work, text, selectionCsv, selectionPanels, out);
            }
        } finally {
            try (var files = Files.walk(work)) {
                for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
        if (options.out() != null) {
            Files.createDirectories(options.out());
            Files.writeString(options.out().resolve("magpie.txt"), text);
            if (!panels.isEmpty()) {
                Files.write(options.out().resolve("magpie.csv"), csv);
                Files.writeString(options.out().resolve("magpie.svg"), MagpieChart.svg(panels));
            }
            if (!selectionPanels.isEmpty()) {
                Files.write(options.out().resolve("selection.csv"), selectionCsv);
                Files.writeString(options.out().resolve("selection.svg"), MagpieChart.svg(selectionPanels));
            }
            out.println("wrote " + options.out().resolve("magpie.txt") + " and the CSV and SVG of each experiment");
        }
        return 0;
    }

    private static void run(int clusters, int perCluster, MagpieOptions o, Path work, StringBuilder text,
                            List<String> csv, List<MagpieChart.Panel> panels, PrintStream out) throws Exception {
        String config = clusters + "x" + perCluster;
        try (EmulatedWan wan = EmulatedWan.create(clusters, o.delayMicros(), o.rate(), o.queue(), work)) {
            LinkModel wide = measure(wan, new int[] {0, 1}, o, work);
            LinkModel local = measure(wan, new int[] {0, 0}, o, work);
            String models = ModelDatabase.of(List.of(wide, local)).format();
            int[] placement = IntStream.range(0, clusters * perCluster).map(r -> r / perCluster).toArray();
            List<String> lines;
            try (WanJob job = WanJob.start(wan, placement, work, models, MagpieRank.class, "bcast", String.join(",",
                    o.sizes().stream().map(String::valueOf).toList()), Integer.toString(o.repeat()),
                    Integer.toString(o.warmUp()))) {
                lines = job.await(JOB);
            }
            String router = wan.stop();
            Placement p = Placement.of(placement, placement, new boolean[placement.length],
                IntStream.range(0, placement.length).toArray());
            WideAreaCost cost = new WideAreaCost(wide, null, local, io.polylink.mpi.internal.p2p.Limits.DEFAULT_EAGER_LIMIT);
            StringBuilder t = new StringBuilder();
            t.append(String.format(Locale.ROOT, "%n%d clusters of %d rank%s; emulated links %.1f ms one way, %,d bytes/s "
                    + "each way, queues of %,d bytes%n", clusters, perCluster, perCluster == 1 ? "" : "s",
                o.delayMicros() / 1000.0, o.rate(), o.queue()))
                .append(String.format(Locale.ROOT, "measured (P-LogP of %s between clusters): L %.2f ms, g(1 KiB) %.2f ms, "
                    + "g(64 KiB) %.1f ms = %,.0f bytes/s; within a cluster (%s): L %.1f us, g(64 KiB) %.1f us%n",
                    wide.stack(), wide.latency() / 1000, wide.gap(1024) / 1000, wide.gap(65_536) / 1000,
                    65_536 / (wide.gap(65_536) / 1e6), local.stack(), local.latency(), local.gap(65_536)));
            t.append(String.format(Locale.ROOT, "%10s %24s %10s %24s %10s %7s  %-16s %-16s%n", "size", "magpie ms (min-max)",
                "estimate", "pipelined ms (min-max)", "estimate", "error", "heuristic", "exhaustive"));
            List<double[]> original = new ArrayList<>();
            List<double[]> pipelined = new ArrayList<>();
            List<double[]> originalEstimate = new ArrayList<>();
            List<double[]> pipelinedEstimate = new ArrayList<>();
            for (int size : o.sizes()) {
                double[] a = results(lines, "RESULT magpie " + size + " ");
                double[] b = results(lines, "RESULT magpie-pipelined " + size + " ");
                WideAreaCost.Shape orig = cost.original(p, 0, size);
                WideAreaCost.Shape heur = cost.heuristic(p, 0, size, 1);
                WideAreaCost.Shape exh = cost.exhaustive(p, 0, size, 1);
                for (int rep = 0; rep < a.length; rep++) {
                    csv.add(String.format(Locale.ROOT, "%s,%d,magpie,%d,%.1f,%.1f", config, size, rep, a[rep], orig.micros()));
                }
                for (int rep = 0; rep < b.length; rep++) {
                    csv.add(String.format(Locale.ROOT, "%s,%d,magpie-pipelined,%d,%.1f,%.1f", config, size, rep, b[rep],
                        heur.micros()));
                }
                double mb = median(b);
                t.append(String.format(Locale.ROOT, "%10s %24s %10.1f %24s %10.1f %6.1f%%  %-16s %-16s%n",
                    Sizes.label(size), spread(a), orig.micros() / 1000, spread(b), heur.micros() / 1000,
                    100 * (mb - heur.micros()) / mb, shape(heur), shape(exh) + String.format(Locale.ROOT, " %.1f",
                        exh.micros() / 1000)));
                original.add(new double[] {size, median(a) / 1000});
                pipelined.add(new double[] {size, mb / 1000});
                originalEstimate.add(new double[] {size, orig.micros() / 1000});
                pipelinedEstimate.add(new double[] {size, heur.micros() / 1000});
            }
            lines.stream().filter(l -> l.startsWith("CHOICE magpie-pipelined")).reduce((x, y) -> y)
                .ifPresent(l -> t.append("the ranks' last choice: ").append(l.substring("CHOICE ".length())).append('\n'));
            t.append("router: ").append(router.strip().replace("\n", "; ")).append('\n');
            out.print(t);
            out.flush();
            text.append(t);
            panels.add(new MagpieChart.Panel("MPI_Bcast, " + clusters + " clusters of " + perCluster
                + ": ms from the root's start to the last rank's return", List.of(
                new MagpieChart.Series("magpie", "#1f77b4", false, original),
                new MagpieChart.Series("magpie estimate", "#1f77b4", true, originalEstimate),
                new MagpieChart.Series("magpie-pipelined", "#d62728", false, pipelined),
                new MagpieChart.Series("pipelined estimate", "#d62728", true, pipelinedEstimate))));
        }
    }

    /** @return the model of the link between the two ranks placed so */
    private static LinkModel measure(EmulatedWan wan, int[] placement, MagpieOptions o, Path work) throws Exception {
        Path file = work.resolve("plogp-" + placement[0] + "-" + placement[1] + ".models");
        try (WanJob job = WanJob.start(wan, placement, work, null, MagpieRank.class, "plogp", Integer.toString(o.plogpMax()),
                Long.toString(o.plogpMillis()), "1000", file.toString())) {
            job.await(JOB);
        }
        return ModelDatabase.read(file).models().get(0);
    }

    /** @return the last number of each line that starts with {@code prefix}: one per repetition */
    static double[] results(List<String> lines, String prefix) {
        double[] values = lines.stream().filter(l -> l.startsWith(prefix))
            .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).toArray();
        if (values.length == 0) {
            throw new IllegalStateException("no line '" + prefix + "…' among: " + lines);
        }
        return values;
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** @return the median, min and max of times in µs, as ms */
    static String spread(double[] v) {
        return String.format(Locale.ROOT, "%.1f (%.1f-%.1f)", median(v) / 1000, Arrays.stream(v).min().orElse(0) / 1000,
            Arrays.stream(v).max().orElse(0) / 1000);
    }

    private static String shape(WideAreaCost.Shape s) {
        return Sizes.label((int) s.segment()) + " w" + s.wide() + " l" + s.local();
    }
}
