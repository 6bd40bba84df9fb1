package io.polylink.bench.internal.magpie;

import io.polylink.bench.internal.Sizes;
import io.polylink.mpi.internal.plogp.PLogPMain;
import io.polylink.plogp.LinkModel;
import io.polylink.plogp.ModelDatabase;
import io.polylink.testkit.EmulatedWan;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code bench magpie}'s size-dependent selection: on one emulated wide-area link, round trips of
 * each size from a context that selects first-applicable beside one that selects by the
 * cost-model policy, over the P-LogP models of tcp and lz4/tcp measured on that link first.
 */
final class SelectionExperiment {

    /** The round trips of 4 MiB at 1 MB/s take four seconds each. */
    private static final Duration LIMIT = Duration.ofMinutes(30);

    private SelectionExperiment() {}

    /** What one round trip of a size, payload and policy measured, the rounds' times in µs. */
    record Cell(String policy, String payload, int size, double[] micros) {}

    static void run(MagpieOptions o, Path work, StringBuilder text, List<String> csv, List<MagpieChart.Panel> panels,
                    PrintStream out) throws Exception {
        try (EmulatedWan wan = EmulatedWan.create(2, o.delayMicros(), o.rate(), o.queue(), work)) {
            Path models = work.resolve("selection.models");
            try (WanJob job = WanJob.start(wan, new int[] {0, 1}, work, null, "lz4", PLogPMain.class, "--stacks",
                    "tcp,lz4/tcp", "--max-size", Integer.toString(o.plogpMax()), "--time-ms",
                    Long.toString(o.plogpMillis()), "--warmup-ms", "1000", "--db", models.toString())) {
                job.await(LIMIT);
            }
            List<String> lines = roundTrips(wan, o, models);
            String router = wan.stop();
            List<LinkModel> measured = ModelDatabase.read(models).models();
            StringBuilder t = new StringBuilder();
            t.append(String.format(Locale.ROOT, "%nsize-dependent selection on one emulated link, %.1f ms one way, "
                + "%,d bytes/s each way; round trips of SIZE out and 16 B back, median of %d (min-max)%n",
                o.delayMicros() / 1000.0, o.rate(), o.repeat()));
            for (LinkModel m : measured) {
                t.append(String.format(Locale.ROOT, "model of %s (zeros): L %.2f ms, g(1 KiB) %.2f ms, "
                    + "g(64 KiB) %.1f ms%n", m.stack(), m.latency() / 1000, m.gap(1024) / 1000, m.gap(65_536) / 1000));
            }
            lines.stream().filter(l -> l.startsWith("EXPLAIN ")).forEach(l -> t.append(l.substring(8)).append('\n'));
            t.append(String.format(Locale.ROOT, "%10s %-7s %22s %22s %8s%n", "size", "payload", "first-applicable ms",
                "cost-model ms", "ratio"));
            List<MagpieChart.Panel> charts = new ArrayList<>();
            for (String payload : SelectionPeer.PAYLOADS) {
                List<double[]> first = new ArrayList<>();
                List<double[]> cost = new ArrayList<>();
                for (int size : o.selectionSizes()) {
                    String at = " " + payload + " " + size + " ";
                    double[] f = MagpieCommand.results(lines, "RESULT " + SelectionPeer.FIRST + at);
                    double[] c = MagpieCommand.results(lines, "RESULT " + SelectionPeer.COST + at);
                    for (int rep = 0; rep < f.length; rep++) {
                        csv.add(String.format(Locale.ROOT, "%d,%s,%s,%d,%.1f", size, payload, SelectionPeer.FIRST, rep,
                            f[rep]));
                        csv.add(String.format(Locale.ROOT, "%d,%s,%s,%d,%.1f", size, payload, SelectionPeer.COST, rep,
                            c[rep]));
                    }
                    t.append(String.format(Locale.ROOT, "%10s %-7s %22s %22s %7.2fx%n", Sizes.label(size), payload,
                        MagpieCommand.spread(f), MagpieCommand.spread(c),
                        MagpieCommand.median(f) / MagpieCommand.median(c)));
                    first.add(new double[] {size, MagpieCommand.median(f) / 1000});
                    cost.add(new double[] {size, MagpieCommand.median(c) / 1000});
                }
                charts.add(new MagpieChart.Panel(payload + " payloads: ms per round trip (size out, 16 B back)",
                    List.of(new MagpieChart.Series(SelectionPeer.FIRST, "#1f77b4", false, first),
                        new MagpieChart.Series(SelectionPeer.COST, "#d62728", false, cost))));
            }
            t.append("ratio: first-applicable's median over cost-model's (above 1: the policy is faster)\n");
            t.append("router: ").append(router.strip().replace("\n", "; ")).append('\n');
            out.print(t);
            out.flush();
            text.append(t);
            panels.addAll(charts);
        }
    }

    /** Runs the server in cluster 1 and the client in cluster 0. @return the client's lines */
    private static List<String> roundTrips(EmulatedWan wan, MagpieOptions o, Path models)
            throws IOException, InterruptedException {
        Process server = peer(wan, 1, "server", wan.address(1));
        try {
            BufferedReader serverOut = new BufferedReader(new InputStreamReader(server.getInputStream(),
                StandardCharsets.UTF_8));
            String first = serverOut.readLine();
            if (first == null || !first.startsWith("SERVER ")) {
                throw new IOException("the selection server did not start: it said " + first);
            }
            Process client = peer(wan, 0, "client", wan.address(0), models.toString(), first.substring(7),
                String.join(",", o.selectionSizes().stream().map(String::valueOf).toList()), Integer.toString(o.repeat()));
            try {
                client.getOutputStream().close();
                List<String> lines = new BufferedReader(new InputStreamReader(client.getInputStream(),
                    StandardCharsets.UTF_8)).lines().toList();
                if (!client.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS) || client.exitValue() != 0) {
                    throw new IOException("the selection client failed; it said: " + lines);
                }
                return lines;
            } finally {
                client.destroyForcibly();
            }
        } finally {
            server.getOutputStream().close(); // its input ends: it stops
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    private static Process peer(EmulatedWan wan, int cluster, String... args) throws IOException {
        List<String> command = WanJob.java(wan, cluster, SelectionPeer.class);
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
