package io.polylink.mpi.internal.plogp;

import io.polylink.plogp.LinkModel;
import io.polylink.plogp.ModelDatabase;
import io.polylink.plogp.SizeParameters;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Link models drawn as in Figure 2 of the MagPIe paper: the gap {@code g(m)} (solid) and the
 * overheads {@code os(m)} (dashed) and {@code or(m)} (dotted) against the message size, a colour
 * per model, both axes logarithmic. Plain SVG 1.1.
 */
final class ModelChart {

    private static final int WIDTH = 820;
    private static final int HEIGHT = 500;
    private static final int LEFT = 80;
    private static final int RIGHT = 250;
    private static final int TOP = 50;
    private static final int BOTTOM = 60;
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
        "#e377c2", "#17becf"};
    private static final String[] DASHES = {"", "8,4", "2,3"};
    private static final String[] NAMES = {"g", "os", "or"};

    private final double x0;
    private final double x1;
    private final double y0;
    private final double y1;

    private ModelChart(double x0, double x1, double y0, double y1) {
        this.x0 = x0;
        this.x1 = x1;
        this.y0 = y0;
        this.y1 = y1;
    }

    /**
     * @throws IllegalArgumentException if no model has a size above 0 with times above 0
     */
    static String svg(String title, List<LinkModel> models) {
        double minX = Double.MAX_VALUE, maxX = 0, minY = Double.MAX_VALUE, maxY = 0;
        for (LinkModel m : models) {
            for (SizeParameters s : m.sizes()) {
                if (s.bytes() <= 0) {
                    continue;
                }
                minX = Math.min(minX, s.bytes());
                maxX = Math.max(maxX, s.bytes());
                for (double t : new double[] {s.gap(), s.sendOverhead(), s.receiveOverhead()}) {
                    if (t > 0) {
                        minY = Math.min(minY, t);
                        maxY = Math.max(maxY, t);
                    }
                }
            }
        }
        if (maxX == 0 || maxY == 0) {
            throw new IllegalArgumentException("nothing to draw on log axes: no size above 0 B with a time above 0");
        }
        double x0 = Math.floor(log2(minX));
        double x1 = Math.ceil(log2(maxX));
        double y0 = Math.floor(Math.log10(minY));
        double y1 = Math.ceil(Math.log10(maxY));
        return new ModelChart(x0, x1 > x0 ? x1 : x0 + 1, y0, y1 > y0 ? y1 : y0 + 1).draw(title, models);
    }

    private String draw(String title, List<LinkModel> models) {
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            + "font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT));
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"25\" font-size=\"15\">%s</text>%n", LEFT,
            escape(title)));
        axes(svg);
        for (int i = 0; i < models.size(); i++) {
            LinkModel m = models.get(i);
            String colour = COLOURS[i % COLOURS.length];
            List<ToDoubleFunction<SizeParameters>> parameters = List.of(SizeParameters::gap,
                SizeParameters::sendOverhead, SizeParameters::receiveOverhead);
            for (int p = 0; p < parameters.size(); p++) {
                line(svg, m, parameters.get(p), colour, DASHES[p]);
            }
            int y = TOP + 10 + i * 36;
            int x = WIDTH - RIGHT + 20;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                + "stroke-width=\"2\"/>%n", x, y, x + 24, y, colour));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s, %s</text>%n", x + 30, y + 4,
                escape(m.stack()), ModelDatabase.text(m.location())));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#555\">L = %s µs</text>%n", x + 30,
                y + 18, ModelTable.time(m.latency())));
        }
        int y = TOP + 20 + models.size() * 36;
        int x = WIDTH - RIGHT + 20;
        for (int p = 0; p < NAMES.length; p++) {
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\" "
                + "stroke-width=\"2\"%s/>%n", x, y + p * 18, x + 24, y + p * 18, dash(DASHES[p])));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s(m)</text>%n", x + 30, y + p * 18 + 4,
                NAMES[p]));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private void axes(StringBuilder svg) {
        int plotRight = WIDTH - RIGHT;
        int plotBottom = HEIGHT - BOTTOM;
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
            + "stroke=\"black\"/>%n", LEFT, TOP, plotRight - LEFT, plotBottom - TOP));
        int step = x1 - x0 > 12 ? 2 : 1;
        for (double e = x0; e <= x1; e += step) {
            double x = x(Math.pow(2, e));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>%n",
                x, TOP, x, plotBottom));
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x,
                plotBottom + 16, ModelTable.size((long) Math.pow(2, e)).replace(" ", "")));
        }
        for (double e = y0; e <= y1; e++) {
            double y = y(Math.pow(10, e));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
                LEFT, y, plotRight, y));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT - 6,
                y + 4, e >= 0 ? String.valueOf((long) Math.pow(10, e)) : String.format(Locale.ROOT, "%." + (int) -e + "f",
                Math.pow(10, e))));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">message size</text>%n",
            (LEFT + plotRight) / 2, HEIGHT - 20));
        svg.append(String.format(Locale.ROOT, "<text x=\"20\" y=\"%d\" text-anchor=\"middle\" "
            + "transform=\"rotate(-90 20 %d)\">µs</text>%n", (TOP + plotBottom) / 2, (TOP + plotBottom) / 2));
    }

    private void line(StringBuilder svg, LinkModel m, ToDoubleFunction<SizeParameters> parameter, String colour,
                      String dash) {
        StringBuilder points = new StringBuilder();
        for (SizeParameters s : m.sizes()) {
            double t = parameter.applyAsDouble(s);
            if (s.bytes() > 0 && t > 0) {
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(s.bytes()), y(t)));
            }
        }
        if (points.length() > 0) {
            svg.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s "
                + "points=\"%s\"/>%n", colour, dash(dash), points.toString().trim()));
        }
    }

    private static String dash(String dash) {
        return dash.isEmpty() ? "" : " stroke-dasharray=\"" + dash + "\"";
    }

    private double x(double bytes) {
        return LEFT + (log2(bytes) - x0) / (x1 - x0) * (WIDTH - RIGHT - LEFT);
    }

    private double y(double micros) {
        return HEIGHT - BOTTOM - (Math.log10(micros) - y0) / (y1 - y0) * (HEIGHT - BOTTOM - TOP);
    }

    private static double log2(double v) {
        return Math.log(v) / Math.log(2);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
