package io.polylink.launcher;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@code polylink bench}: runs lib/polylink-bench.jar with the given command and options in a
 * child JVM, prints its results and keeps them in an output folder. For {@code pingpong} the jar
 * is asked for CSV, which is saved, shown as a table and drawn as an SVG chart; other commands'
 * output is shown and saved as text. A command or option the jar does not know fails with the
 * jar's own message and exit code.
 */
final class Bench {

    static final String HELP = """
        usage: polylink bench [--out DIR] <command> [options of the command]

        Runs a benchmark of lib/bench/polylink-bench.jar on this installation, prints its results and
        writes them to an output folder:
          pingpong     round trips and bandwidth between two processes on 127.0.0.1 (raw NIO, Netty,
                       Polylink); writes pingpong.csv (impl,size,count,rtt_p50_us,rtt_p99_us,mb_per_s)
                       and pingpong.svg, round trip against message size per implementation on log
                       axes (as Figure 5 of the Nexus paper)
          mpi          MPI latency, bandwidth and overlap between two ranks, the mpi bundle over shm and
                       tcp against Open MPI (when mpicc and mpirun exist); writes mpi.txt, mpi.csv
                       (impl,test,size,compute_us,run,value,unit) and mpi.svg
          multi, transforms, swap, jmh
                       passed to the bench jar as they are; their output is saved as <command>.txt
                       (a command this bench jar does not have fails with its message)

          --out DIR    the output folder, created if missing (default ./polylink-bench-<date>-<time>);
                       before or after the command
          --help       this text; 'polylink bench <command> --help' shows the command's own options

        Example: polylink bench pingpong --sizes 16,1k,64k --count 20000 --out results""";

    private Bench() {}

    static int run(String[] args) throws IOException, InterruptedException {
        BenchArgs parsed;
        try {
            parsed = BenchArgs.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("polylink bench: " + e.getMessage() + "\n" + HELP);
            return 2;
        }
        if (parsed == null) {
            System.out.println(HELP);
            return 0;
        }
        Path jar = Home.fromSystemProperty().lib().resolve("bench/polylink-bench.jar");
        if (!Files.isRegularFile(jar)) {
            System.err.println("polylink bench: " + jar + " is missing: the distribution is incomplete; rebuild it");
            return 1;
        }
        boolean pingpong = parsed.command().equals("pingpong") && !parsed.commandHelp();
        boolean mpi = parsed.command().equals("mpi") && !parsed.commandHelp();
        List<String> passed = new ArrayList<>(parsed.passed());
        if (pingpong && !passed.contains("--csv")) {
            passed.add("--csv"); // the jar prints its table or CSV; CSV makes both the table and the chart
        }
        if (mpi) {
            passed.addAll(List.of("--out", parsed.out().toString())); // the jar writes mpi.txt, mpi.csv and mpi.svg
        }
        List<String> lines = new ArrayList<>();
        int status = runJar(jar, passed, pingpong ? lines::add : line -> {
            lines.add(line);
            System.out.println(line);
        });
        if (parsed.commandHelp()) {
            System.out.println("\n(and, from polylink bench: --out DIR, where the results go; see polylink bench --help)");
            return status;
        }
        if (status != 0) {
            if (pingpong) {
                lines.forEach(System.out::println);
            }
            return status;
        }
        Files.createDirectories(parsed.out());
        if (mpi) {
            return 0;
        }
        if (!pingpong) {
            Path text = parsed.out().resolve(parsed.command() + ".txt");
            Files.write(text, lines, StandardCharsets.UTF_8);
            System.out.println("\nsaved in " + text);
            return 0;
        }
        return pingPongResults(parsed.out(), lines, String.join(" ", parsed.passed().subList(1, parsed.passed().size())));
    }

    /**
     * Runs the bench jar on this launcher's JDK; its stderr (progress, errors) goes straight
     * through, each line of its stdout (the results) to {@code results}.
     *
     * @return its exit code
     */
    private static int runJar(Path jar, List<String> arguments, Consumer<String> results)
            throws IOException, InterruptedException {
        List<String> commandLine = new ArrayList<>(List.of(java(), "-jar", jar.toString()));
        commandLine.addAll(arguments);
        Process bench = new ProcessBuilder(commandLine).redirectError(ProcessBuilder.Redirect.INHERIT)
            .redirectInput(ProcessBuilder.Redirect.INHERIT).start();
        Thread stop = new Thread(() -> stop(bench), "polylink-bench-stop");
        Runtime.getRuntime().addShutdownHook(stop); // Ctrl-C: the bench and its peer JVMs end too
        try (BufferedReader out = new BufferedReader(new InputStreamReader(bench.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                results.accept(line);
            }
            return bench.waitFor();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stop);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs: nothing to remove
            }
        }
    }

    private static int pingPongResults(Path out, List<String> csv, String options) throws IOException {
        List<PingPongRow> rows;
        try {
            rows = PingPongRow.parse(csv);
        } catch (IllegalArgumentException e) {
            System.err.println("polylink bench: " + e.getMessage() + "; the bench printed:\n" + String.join("\n", csv));
            return 1;
        }
        PingPongRow.table(rows).forEach(System.out::println);
        Path csvFile = out.resolve("pingpong.csv");
        Path svgFile = out.resolve("pingpong.svg");
        Files.write(csvFile, csv, StandardCharsets.UTF_8);
        if (rows.isEmpty()) {
            System.out.println("\nno results to draw; CSV in " + csvFile);
            return 1;
        }
        Files.writeString(svgFile, RttChart.svg("ping-pong round trip on 127.0.0.1, by message size",
            "polylink bench pingpong " + options, rows),
            StandardCharsets.UTF_8);
        System.out.println("\nCSV in " + csvFile + ", chart in " + svgFile);
        return 0;
    }

    /** The java that runs this launcher, so the bench runs on the same JDK. */
    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    private static void stop(Process bench) {
        List<ProcessHandle> tree = new ArrayList<>(bench.descendants().toList());
        tree.add(bench.toHandle());
        tree.forEach(ProcessHandle::destroy);
        for (ProcessHandle p : tree) {
            try {
                p.onExit().get(5, TimeUnit.SECONDS);
            } catch (Exception notYet) {
                p.destroyForcibly();
            }
        }
    }
}
