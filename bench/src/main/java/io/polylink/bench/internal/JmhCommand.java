package io.polylink.bench.internal;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.profile.ProfilerFactory;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * Runs JMH with its usual command line and then sets each benchmark beside the method named
 * {@value #BASELINE} of the same class, mode and parameters: a number means little without the
 * floor it was measured against in the same run.
 */
final class JmhCommand {

    /** The method that measures the floor, e.g. calling a handler directly. */
    static final String BASELINE = "baseline";
    private static final String ALLOCATION = "gc.alloc.rate.norm";

    private JmhCommand() {}

    /** @return the process exit status */
    static int run(String[] args) throws Exception {
        CommandLineOptions options;
        try {
            options = new CommandLineOptions(args);
        } catch (CommandLineOptionException e) {
            System.err.println("jmh: " + e.getMessage());
            return 2;
        }
        if (options.shouldHelp()) {
            options.showHelp();
            return 0;
        }
        if (options.shouldList()) {
            new Runner(options).list();
            return 0;
        }
        if (options.shouldListWithParams()) {
            new Runner(options).listWithParams(options);
            return 0;
        }
        if (options.shouldListProfilers()) {
            ProfilerFactory.listProfilers(System.out);
            return 0;
        }
        if (options.shouldListResultFormats()) {
            for (ResultFormatType type : ResultFormatType.values()) {
                System.out.println(type.toString().toLowerCase(Locale.ROOT));
            }
            return 0;
        }
        Collection<RunResult> results;
        try {
            results = new Runner(options).run();
        } catch (RunnerException e) {
            System.err.println("jmh: " + e.getMessage());
            return 1;
        }
        compare(results, System.out);
        return 0;
    }

    /** Prints, per group with a baseline, each candidate's score, allocation and ratio to it. */
    static void compare(Collection<RunResult> results, PrintStream out) {
        Map<String, List<RunResult>> groups = new LinkedHashMap<>();
        for (RunResult r : results) {
            groups.computeIfAbsent(groupOf(r), k -> new ArrayList<>()).add(r);
        }
        for (Map.Entry<String, List<RunResult>> group : groups.entrySet()) {
            RunResult baseline = group.getValue().stream()
                .filter(r -> methodOf(r).equals(BASELINE)).findFirst().orElse(null);
            if (baseline == null) {
                continue;
            }
            out.println();
            out.println("Compared with " + BASELINE + " (" + group.getKey() + "):");
            out.println(line(baseline, null));
            for (RunResult candidate : group.getValue()) {
                if (candidate != baseline) {
                    out.println(line(candidate, baseline));
                }
            }
        }
    }

    private static String line(RunResult r, RunResult baseline) {
        Result score = r.getPrimaryResult();
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-12s %10.3f ± %7.3f %s",
            methodOf(r), score.getScore(), error(score), score.getScoreUnit()));
        Result allocation = allocation(r);
        if (allocation != null) {
            line.append(String.format(Locale.ROOT, "   %8.3f ± %6.3f B/op", allocation.getScore(), error(allocation)));
        }
        if (baseline != null) {
            double ratio = score.getScore() / baseline.getPrimaryResult().getScore();
            // Relative errors (JMH's 99.9% half-widths) added in quadrature: a rough band, not a test.
            double spread = ratio * Math.hypot(relative(score), relative(baseline.getPrimaryResult()));
            line.append(String.format(Locale.ROOT, "   ratio %.2f ± %.2f", ratio, spread));
        }
        return line.toString();
    }

    private static Result allocation(RunResult r) {
        for (Map.Entry<String, Result> e : r.getSecondaryResults().entrySet()) {
            if (e.getKey().endsWith(ALLOCATION)) {
                return e.getValue();
            }
        }
        return null;
    }

    /** A single measurement has no error (JMH gives NaN): show it as 0 rather than hide the line. */
    private static double error(Result r) {
        return Double.isNaN(r.getScoreError()) ? 0 : r.getScoreError();
    }

    private static double relative(Result r) {
        return r.getScore() == 0 ? 0 : error(r) / r.getScore();
    }

    private static String methodOf(RunResult r) {
        String name = r.getParams().getBenchmark();
        return name.substring(name.lastIndexOf('.') + 1);
    }

    private static String groupOf(RunResult r) {
        String name = r.getParams().getBenchmark();
        StringBuilder key = new StringBuilder(name.substring(0, name.lastIndexOf('.')))
            .append(", ").append(r.getParams().getMode().shortLabel());
        for (String p : r.getParams().getParamsKeys()) {
            key.append(", ").append(p).append('=').append(r.getParams().getParam(p));
        }
        return key.toString();
    }
}
