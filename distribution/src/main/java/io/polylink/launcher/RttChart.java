package io.polylink.launcher;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * An SVG chart of ping-pong results as in Figure 5 of the Nexus paper: round-trip time against
 * message size, one line per implementation, both axes logarithmic. The median is a solid line,
 * the 99th percentile a dashed one of the same colour. Plain SVG 1.1, so any browser shows it.
 */
final class RttChart {

    private static final int WIDTH = 760;
    private static final int HEIGHT = 480;
    private static final int LEFT = 80;
    private static final int RIGHT = 190;
    private static final int TOP = 50;
    private static final int BOTTOM = 60;
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
        "#e377c2", "#17becf"};

    private final double xMin;
    private final double xMax;
    private final double yMin;
    private final double yMax;

    private RttChart(double xMin, double xMax, double yMin, double yMax) {
        this.xMin = xMin;
        this.xMax = xMax;
        this.yMin = yMin;
        this.yMax = yMax;
    }

    /**
     * @param title the chart's heading
     * @param subtitle a smaller line under it, e.g. the options of the run; cut to fit
     * @throws IllegalArgumentException if there are no rows or a size or time is not positive
     */
    static String svg(String title, String subtitle, List<PingPongRow> rows) {
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("no ping-pong results to draw");
        }
        for (PingPongRow r : rows) {
            if (r.size() <= 0 || r.p50Micros() <= 0 || r.p99Micros() <= 0) {
                throw new IllegalArgumentException("cannot draw " + r + " on log axes: size and times must be positive");
            }
        }
        // Whole powers of two and of ten at the ends, so the axes start and end on a labelled tick.
        double x0 = Math.floor(log2(rows.stream().mapToInt(PingPongRow::size).min().orElseThrow()));
        double x1 = Math.ceil(log2(rows.stream().mapToInt(PingPongRow::size).max().orElseThrow()));
        double y0 = Math.floor(Math.log10(rows.stream().mapToDouble(PingPongRow::p50Micros).min().orElseThrow()));
        double y1 = Math.ceil(Math.log10(rows.stream().mapToDouble(PingPongRow::p99Micros).max().orElseThrow()));
        RttChart chart = new RttChart(x0, x1 > x0 ? x1 : x0 + 1, y0, y1 > y0 ? y1 : y0 + 1);
        return chart.draw(title, subtitle, rows);
    }

    private String draw(String title, String subtitle, List<PingPongRow> rows) {
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT, WIDTH, HEIGHT));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, HEIGHT));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\">%s</text>%n", LEFT, escape(title)));
        String small = subtitle.length() > 100 ? subtitle.substring(0, 97) + "..." : subtitle;
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"40\" font-size=\"11\" fill=\"#555\">%s</text>%n", LEFT,
            escape(small)));
        axes(svg);
        List<String> impls = rows.stream().map(PingPongRow::impl).distinct().toList();
        for (int i = 0; i < impls.size(); i++) {
            String impl = impls.get(i);
            String colour = COLOURS[i % COLOURS.length];
            List<PingPongRow> series = rows.stream().filter(r -> r.impl().equals(impl))
                .sorted(Comparator.comparingInt(PingPongRow::size)).toList();
            line(svg, series, true, colour);
            line(svg, series, false, colour);
            int ly = TOP + 20 + i * 36;
            int lx = WIDTH - RIGHT + 20;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                + "stroke-width=\"2\"/>%n", lx, ly, lx + 24, ly, colour));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s p50</text>%n", lx + 30, ly + 4, escape(impl)));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                + "stroke-width=\"1.5\" stroke-dasharray=\"5,4\"/>%n", lx, ly + 16, lx + 24, ly + 16, colour));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">p99</text>%n", lx + 30, ly + 20));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private void axes(StringBuilder svg) {
        int right = WIDTH - RIGHT;
        int bottom = HEIGHT - BOTTOM;
        int step = xMax - xMin > 8 ? 2 : 1; // labels of every other power of two when they would crowd
        for (double e = xMin; e <= xMax; e += step) {
            double x = x(Math.pow(2, e));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>%n",
                x, TOP, x, bottom));
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x,
                bottom + 18, PingPongRow.bytes((int) Math.pow(2, e))));
        }
        for (double e = yMin; e <= yMax; e++) {
            double y = y(Math.pow(10, e));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#bbb\"/>%n",
                LEFT, y, right, y));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT - 8,
                y + 4, decade(e)));
            for (int m = 2; m <= 9 && e < yMax; m++) {
                double minor = y(m * Math.pow(10, e));
                svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
                    + "stroke=\"#eee\"/>%n", LEFT, minor, right, minor));
            }
        }
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
            + "stroke=\"black\"/>%n", LEFT, TOP, right - LEFT, bottom - TOP));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">message size "
            + "(bytes each way, log scale)</text>%n", (LEFT + right) / 2, HEIGHT - 16));
        svg.append(String.format(Locale.ROOT, "<text transform=\"translate(22,%d) rotate(-90)\" text-anchor=\"middle\">"
            + "round trip (microseconds, log scale)</text>%n", (TOP + bottom) / 2));
    }

    private void line(StringBuilder svg, List<PingPongRow> series, boolean median, String colour) {
        StringBuilder points = new StringBuilder();
        for (PingPongRow r : series) {
            double value = median ? r.p50Micros() : r.p99Micros();
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(r.size()), y(value)));
            if (median) {
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>%n",
                    x(r.size()), y(value), colour));
            }
        }
        svg.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s/>%n",
            points.toString().trim(), colour, median ? "2" : "1.5", median ? "" : " stroke-dasharray=\"5,4\""));
    }

    private double x(double size) {
        return LEFT + (log2(size) - xMin) / (xMax - xMin) * (WIDTH - RIGHT - LEFT);
    }

    private double y(double micros) {
        return HEIGHT - BOTTOM - (Math.log10(micros) - yMin) / (yMax - yMin) * (HEIGHT - BOTTOM - TOP);
    }

    private static double log2(double v) {
        return Math.log(v) / Math.log(2);
    }

    private static String decade(double exponent) {
        double v = Math.pow(10, exponent);
        return v >= 1 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%s", v);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
