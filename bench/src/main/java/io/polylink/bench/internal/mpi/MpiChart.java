package io.polylink.bench.internal.mpi;

import io.polylink.bench.internal.Sizes;
import io.polylink.bench.internal.pingpong.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The charts of {@code bench mpi} in one plain SVG 1.1 file: latency and bandwidth against message
 * size (both axes logarithmic), the overlap experiment's time in wait against computation
 * (linear), and each collective's time per call against message size, one colour per
 * implementation, medians over the runs. In the overlap chart the receiver's wait is solid, the
 * sender's dashed; in a collective's, the first number of ranks is solid, the others dashed.
 */
final class MpiChart {

    private static final int WIDTH = 760;
    private static final int PANEL = 320;
    private static final int LEFT = 80;
    private static final int RIGHT = 170;
    private static final int TOP = 70;
    private static final int BOTTOM = 50;
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e"};

    /** One line of a chart. */
    private record Series(String name, String colour, boolean dashed, List<double[]> points) {}

    private MpiChart() {}

    /** @return the SVG document */
    static String svg(MpiReport report, MpiOptions options, String subtitle) {
        List<String> panels = new ArrayList<>();
        List<Integer> sizes = options.sizes().stream().filter(s -> s > 0).toList();
        if (options.tests().contains("latency") && !sizes.isEmpty()) {
            panels.add(panel("latency, us one way", "message size (bytes)", true,
                sizeSeries(report, options, "latency", sizes)));
        }
        if (options.tests().contains("bw") && !sizes.isEmpty()) {
            panels.add(panel("bandwidth, MB/s (windows of " + options.window() + ")", "message size (bytes)", true,
                sizeSeries(report, options, "bw", sizes)));
        }
        if (options.tests().contains("overlap")) {
            List<Series> series = new ArrayList<>();
            for (int i = 0; i < options.impls().size(); i++) {
                String impl = options.impls().get(i);
                for (String side : List.of("overlap_recv_wait", "overlap_send_wait")) {
                    List<double[]> points = new ArrayList<>();
                    for (int us : options.compute()) {
                        report.figure(impl, side, options.overlapSize(), us)
                            .ifPresent(s -> points.add(new double[] {us, s.median()}));
                    }
                    series.add(new Series(impl + (side.contains("recv") ? " recv" : " send"), COLOURS[i % COLOURS.length],
                        side.contains("send"), points));
                }
            }
            panels.add(panel("overlap: us in wait, " + Sizes.label(options.overlapSize()), "computation between post and "
                + "wait (us)", false, series));
        }
        List<Integer> collectiveSizes = options.sizes().stream().filter(s -> s >= 8).toList();
        for (String test : MpiReport.COLLECTIVES) {
            if (options.tests().contains(test) && !test.equals("barrier") && !collectiveSizes.isEmpty()) {
                List<Series> series = new ArrayList<>();
                for (int r = 0; r < options.ranks().size(); r++) {
                    int ranks = options.ranks().get(r);
                    for (Series one : sizeSeries(report, options, test + "_" + ranks, collectiveSizes)) {
                        series.add(new Series(one.name() + ", " + ranks, one.colour(), r > 0, one.points()));
                    }
                }
                panels.add(panel(test + ", us per call (ranks' average); dashed: " + options.ranks().stream().skip(1)
                    .map(String::valueOf).collect(java.util.stream.Collectors.joining(", ")) + " ranks",
                    "message size (bytes)", true, series));
            }
        }
        int height = panels.size() * PANEL + 40;
        StringBuilder svg = new StringBuilder(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
            + "width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", WIDTH, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", WIDTH, height));
        svg.append("<text x=\"20\" y=\"22\" font-size=\"15\">bench mpi: Polylink's mpi bundle and Open MPI, ranks on "
            + "one host</text>\n");
        svg.append("<text x=\"20\" y=\"38\" fill=\"#555\">").append(escape(subtitle.length() > 110
            ? subtitle.substring(0, 107) + "..." : subtitle)).append("</text>\n");
        for (int p = 0; p < panels.size(); p++) {
            svg.append(String.format(Locale.ROOT, "<g transform=\"translate(0,%d)\">\n", 20 + p * PANEL))
                .append(panels.get(p)).append("</g>\n");
        }
        return svg.append("</svg>\n").toString();
    }

    private static List<Series> sizeSeries(MpiReport report, MpiOptions options, String test, List<Integer> sizes) {
        List<Series> series = new ArrayList<>();
        for (int i = 0; i < options.impls().size(); i++) {
            String impl = options.impls().get(i);
            List<double[]> points = new ArrayList<>();
            for (int size : sizes) {
                Optional<Spread> s = report.figure(impl, test, size, 0);
                s.filter(x -> x.median() > 0).ifPresent(x -> points.add(new double[] {size, x.median()}));
            }
            series.add(new Series(impl, COLOURS[i % COLOURS.length], false, points));
        }
        return series;
    }

    private static String panel(String title, String xLabel, boolean log, List<Series> series) {
        List<double[]> all = series.stream().flatMap(s -> s.points().stream()).toList();
        StringBuilder g = new StringBuilder();
        g.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"13\">%s</text>\n", LEFT, TOP - 25,
            escape(title)));
        if (all.isEmpty()) {
            return g.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">no results</text>\n", LEFT, TOP + 20))
                .toString();
        }
        double x0 = all.stream().mapToDouble(p -> axis(p[0], log)).min().orElseThrow();
        double x1 = all.stream().mapToDouble(p -> axis(p[0], log)).max().orElseThrow();
        double y0 = log ? Math.floor(all.stream().mapToDouble(p -> Math.log10(p[1])).min().orElseThrow()) : 0;
        double y1 = log ? Math.ceil(all.stream().mapToDouble(p -> Math.log10(p[1])).max().orElseThrow())
            : all.stream().mapToDouble(p -> p[1]).max().orElseThrow() * 1.1;
        double[] box = {x0, x1 > x0 ? x1 : x0 + 1, y0, y1 > y0 ? y1 : y0 + 1};
        int plotBottom = PANEL - BOTTOM;
        g.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
            + "stroke=\"#999\"/>\n", LEFT, TOP, WIDTH - LEFT - RIGHT, plotBottom - TOP));
        for (int t = 0; t <= 4; t++) {
            double xv = box[0] + (box[1] - box[0]) * t / 4;
            double yv = box[2] + (box[3] - box[2]) * t / 4;
            g.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                x(xv, box), plotBottom + 16, log ? Sizes.label((int) Math.round(Math.pow(2, xv))) : label(xv)));
            g.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", LEFT - 6,
                y(yv, box) + 4, label(log ? Math.pow(10, yv) : yv)));
        }
        g.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
            (LEFT + WIDTH - RIGHT) / 2, plotBottom + 36, escape(xLabel)));
        int legend = TOP;
        for (Series s : series) {
            if (s.points().isEmpty()) {
                continue;
            }
            StringBuilder line = new StringBuilder();
            for (double[] p : s.points()) {
                line.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(axis(p[0], log), box),
                    y(log ? Math.log10(p[1]) : p[1], box)));
            }
            String dash = s.dashed() ? " stroke-dasharray=\"5,4\"" : "";
            g.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>\n",
                line.toString().trim(), s.colour(), dash));
            g.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                + "stroke-width=\"2\"%s/>\n", WIDTH - RIGHT + 10, legend, WIDTH - RIGHT + 35, legend, s.colour(), dash));
            g.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>\n", WIDTH - RIGHT + 40, legend + 4,
                escape(s.name())));
            legend += 18;
        }
        return g.toString();
    }

    private static double axis(double v, boolean log) {
        return log ? Math.log(v) / Math.log(2) : v;
    }

    private static double x(double v, double[] box) {
        return LEFT + (v - box[0]) / (box[1] - box[0]) * (WIDTH - LEFT - RIGHT);
    }

    private static double y(double v, double[] box) {
        return (PANEL - BOTTOM) - (v - box[2]) / (box[3] - box[2]) * (PANEL - BOTTOM - TOP);
    }

    private static String label(double v) {
        return v >= 1 && v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : MpiReport.number(v);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
