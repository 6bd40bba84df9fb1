package io.polylink.bench.internal.mpi;

import io.polylink.bench.internal.LoadAverage;
import io.polylink.bench.internal.Processors;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code bench mpi}: the OSU-style latency and bandwidth of Polylink's mpi bundle and of Open
 * MPI's C implementation between two ranks on this host, and LA-MPI-ED's overlap experiment, in
 * interleaved runs; see {@link MpiOptions#HELP}. Progress goes to stderr, results to
 * {@code out}.
 */
public final class MpiCommand {

    /** How long one run of one implementation may take. */
    private static final Duration RUN_LIMIT = Duration.ofMinutes(15);

    private MpiCommand() {}

    public static int run(String[] args, PrintStream out) throws IOException, InterruptedException {
        MpiOptions options;
        try {
            options = MpiOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench mpi: " + e.getMessage() + "\n\n" + MpiOptions.HELP);
            return 2;
        }
        if (options == null) {
            out.println(MpiOptions.HELP);
            return 0;
        }
        Optional<OpenMpi> openMpi = needsOpenMpi(options) ? OpenMpi.find() : Optional.empty();
        List<String> impls = new ArrayList<>(options.impls());
        if (needsOpenMpi(options) && openMpi.isEmpty()) {
            impls.removeIf(i -> i.startsWith("openmpi:"));
            System.err.println("bench mpi: Open MPI is not installed here (no mpicc and mpirun on the PATH), so there is "
                + "no baseline; to measure it too: " + OpenMpi.INSTALL);
            if (impls.isEmpty()) {
                return 1;
            }
        }
        MpiOptions measured = new MpiOptions(List.copyOf(impls), options.tests(), options.sizes(), options.ranks(),
            options.compute(), options.overlapSize(), options.window(), options.repeat(), options.warmup(), options.csv(),
            options.out(), options.buffers());
        String loadBefore = LoadAverage.now();
        List<Map<String, List<MpiResult>>> runs = new ArrayList<>();
        try {
            for (int run = 0; run < measured.repeat(); run++) {
                List<String> order = new ArrayList<>(measured.impls());
                if (run % 2 == 1) {
                    java.util.Collections.reverse(order);
                }
                Map<String, List<MpiResult>> results = new LinkedHashMap<>();
                for (int ranks : measured.rankCounts()) {
                    for (String impl : order) {
                        System.err.println("bench mpi: run " + (run + 1) + " of " + measured.repeat() + ": " + impl
                            + ", " + ranks + " ranks (load " + LoadAverage.now() + ")");
                        List<String> arguments = measured.programArguments(ranks);
                        try {
                            results.computeIfAbsent(impl, i -> new ArrayList<>()).addAll(impl.startsWith("openmpi:")
                                ? openMpi.orElseThrow().run(impl, ranks, arguments, RUN_LIMIT)
                                : PolylinkRanks.run(impl, ranks, arguments, measured.buffers(), RUN_LIMIT));
                        } catch (IOException e) {
                            System.err.println("bench mpi: run " + (run + 1) + " of " + impl + " with " + ranks
                                + " ranks failed: " + e.getMessage());
                        }
                    }
                }
                runs.add(results);
            }
        } finally {
            openMpi.ifPresent(OpenMpi::close);
        }
        MpiReport report = new MpiReport(runs);
        String header = "bench mpi on one host: ranks in separate processes (" + measured.rankCounts().stream()
            .map(String::valueOf).collect(java.util.stream.Collectors.joining(" and ")) + "), " + Processors.describe()
            + "; load average (1, 5, 15 min) before " + loadBefore + ", after "
            + LoadAverage.now();
        String baseline = openMpi.map(o -> "Open MPI: " + o.version() + ", osu.c compiled with mpicc -O2; mpirun "
            + "--mca pml ob1 --bind-to none, btl self,vader or self,tcp on lo").orElse("Open MPI: not measured");
        String interleaving = measured.repeat() + " run" + (measured.repeat() == 1 ? "" : "s") + ", each measuring "
            + String.join(", ", measured.impls()) + " in turn (reversed every other run); Polylink's ranks use "
            + (measured.buffers().equals(MpiOptions.DIRECT) ? "direct buffers of MPI.newByteBuffer and MPI.newDoubleBuffer"
            : "arrays in blocking calls");
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        try (PrintStream table = new PrintStream(text, true, StandardCharsets.UTF_8)) {
            table.println(header);
            table.println(baseline);
            table.println(interleaving);
            report.table(measured, table);
        }
        if (options.csv()) {
            report.csv(out);
        } else {
            out.print(text.toString(StandardCharsets.UTF_8));
        }
        if (options.out() != null) {
            Files.createDirectories(options.out());
            try (PrintStream csv = new PrintStream(Files.newOutputStream(options.out().resolve("mpi.csv")), true,
                    StandardCharsets.UTF_8)) {
                report.csv(csv);
            }
            Files.writeString(options.out().resolve("mpi.txt"), text.toString(StandardCharsets.UTF_8));
            Files.writeString(options.out().resolve("mpi.svg"), MpiChart.svg(report, measured, header));
            System.err.println("bench mpi: mpi.txt, mpi.csv and mpi.svg in " + options.out());
        }
        return runs.stream().allMatch(r -> r.size() == measured.impls().size()) ? 0 : 1;
    }

    private static boolean needsOpenMpi(MpiOptions options) {
        return options.impls().stream().anyMatch(i -> i.startsWith("openmpi:"));
    }
}
