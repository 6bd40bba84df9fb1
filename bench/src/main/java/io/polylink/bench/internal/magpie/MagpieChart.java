package io.polylink.bench.internal.magpie;

import io.polylink.bench.internal.Sizes;
import java.util.List;
import java.util.Locale;

/**
 * The charts of {@code bench magpie}: milliseconds against message size, both axes logarithmic, a
 * panel per configuration, as Figure 4 of the MagPIe paper (a broadcast's completion time, measured
 * solid, the models' estimates dashed). Plain SVG 1.1.
 */
final class MagpieChart {

    private static final int WIDTH = 760;
    private static final int PANEL = 340;
    private static final int LEFT = 80;
    private static final int RIGHT = 190;
    private static final int TOP = 60;
    private static final int BOTTOM = 50;

    /** One line: points of {size in bytes, milliseconds}. */
    record Series(String name, String colour, boolean dashed, List<double[]> points) {}

    /** One configuration's chart, under its title: what is timed, in ms. */
    record Panel(String title, List<Series> series) {}

    private MagpieChart() {}

    static String svg(List<Panel> panels) {
        StringBuilder svg = new StringBuilder();
        int height = panels.size() * (PANEL + TOP + BOTTOM) + 20;
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            + "font-family=\"sans-serif\" font-size=\"12\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n",
            WIDTH, height));
        for (int i = 0; i < panels.size(); i++) {
            panel(svg, panels.get(i), i * (PANEL + TOP + BOTTOM));
        }
        return svg.append("</svg>\n").toString();
    }

    private static void panel(StringBuilder svg, Panel p, int y0) {
        double minX = Double.MAX_VALUE, maxX = 0, minY = Double.MAX_VALUE, maxY = 0;
        for (Series s : p.series()) {
            for (double[] pt : s.points()) {
                if (pt[0] > 0 && pt[1] > 0) {
                    minX = Math.min(minX, pt[0]);
                    maxX = Math.max(maxX, pt[0]);
                    minY = Math.min(minY, pt[1]);
                    maxY = Math.max(maxY, pt[1]);
                }
            }
        }
        if (maxX == 0) {
            return;
        }
        double ex0 = Math.floor(log2(minX));
        double ex1 = Math.max(ex0 + 1, Math.ceil(log2(maxX)));
        double ey0 = Math.floor(Math.log10(minY));
        double ey1 = Math.max(ey0 + 1, Math.ceil(Math.log10(maxY)));
        int top = y0 + TOP;
        int bottom = top + PANEL;
        int right = WIDTH - RIGHT;
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"15\">%s</text>%n", LEFT, top - 20,
            p.title()));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
            + "stroke=\"black\"/>%n", LEFT, top, right - LEFT, PANEL));
        for (double e = ex0; e <= ex1; e += ex1 - ex0 > 10 ? 2 : 1) {
            double x = LEFT + (e - ex0) / (ex1 - ex0) * (right - LEFT);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>%n"
                + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x, top, x, bottom, x, bottom + 16,
                Sizes.label((int) Math.pow(2, e)).replace(" ", "")));
        }
        for (double e = ey0; e <= ey1; e++) {
            double y = bottom - (e - ey0) / (ey1 - ey0) * PANEL;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n"
                + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT, y, right, y, LEFT - 6, y + 4,
                e >= 0 ? String.valueOf((long) Math.pow(10, e)) : String.format(Locale.ROOT, "%." + (int) -e + "f",
                    Math.pow(10, e))));
        }
        for (int i = 0; i < p.series().size(); i++) {
            Series s = p.series().get(i);
            StringBuilder points = new StringBuilder();
            for (double[] pt : s.points()) {
                if (pt[0] > 0 && pt[1] > 0) {
                    double x = LEFT + (log2(pt[0]) - ex0) / (ex1 - ex0) * (right - LEFT);
                    double y = bottom - (Math.log10(pt[1]) - ey0) / (ey1 - ey0) * PANEL;
                    points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
                }
            }
            String dash = s.dashed() ? " stroke-dasharray=\"6,4\"" : "";
            svg.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s "
                + "points=\"%s\"/>%n", s.colour(), dash, points.toString().trim()));
            int ly = top + 10 + i * 20;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                + "stroke-width=\"2\"%s/>%n<text x=\"%d\" y=\"%d\">%s</text>%n", right + 15, ly, right + 39, ly,
                s.colour(), dash, right + 45, ly + 4, s.name()));
        }
    }

    private static double log2(double v) {
        return Math.log(v) / Math.log(2);
    }
}
