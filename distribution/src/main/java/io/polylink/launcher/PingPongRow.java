package io.polylink.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One row of the bench jar's {@code pingpong --csv} output: header
 * {@code impl,size,count,rtt_p50_us,rtt_p99_us,mb_per_s}.
 */
record PingPongRow(String impl, int size, int count, double p50Micros, double p99Micros, double mbPerSecond) {

    static final String HEADER = "impl,size,count,rtt_p50_us,rtt_p99_us,mb_per_s";

    /**
     * @param lines the CSV, header first; blank lines are skipped
     * @throws IllegalArgumentException naming the line that is not a row of that header
     */
    static List<PingPongRow> parse(List<String> lines) {
        List<String> rows = lines.stream().filter(l -> !l.isBlank()).toList();
        if (rows.isEmpty() || !rows.get(0).trim().equals(HEADER)) {
            throw new IllegalArgumentException("the bench's CSV does not start with the header " + HEADER);
        }
        List<PingPongRow> out = new ArrayList<>();
        for (String line : rows.subList(1, rows.size())) {
            String[] f = line.trim().split(",");
            try {
                if (f.length != 6) {
                    throw new NumberFormatException(f.length + " fields, not 6");
                }
                out.add(new PingPongRow(f[0], Integer.parseInt(f[1]), Integer.parseInt(f[2]), Double.parseDouble(f[3]),
                    Double.parseDouble(f[4]), Double.parseDouble(f[5])));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("the bench's CSV line '" + line + "' is not a row of " + HEADER
                    + ": " + e.getMessage());
            }
        }
        return out;
    }

    /** @return {@code 16 B}, {@code 64 KiB}, {@code 1 MiB} */
    static String bytes(int size) {
        if (size >= 1 << 20 && size % (1 << 20) == 0) {
            return size / (1 << 20) + " MiB";
        }
        if (size >= 1 << 10 && size % (1 << 10) == 0) {
            return size / (1 << 10) + " KiB";
        }
        return size + " B";
    }

    /** The rows as a table, one block per size in the order they came. */
    static List<String> table(List<PingPongRow> rows) {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "%-8s %-18s %7s %10s %10s %9s", "size", "impl", "count", "p50 us", "p99 us",
            "MB/s"));
        rows.stream().map(PingPongRow::size).distinct().forEach(size -> rows.stream().filter(r -> r.size() == size)
            .forEach(r -> out.add(String.format(Locale.ROOT, "%-8s %-18s %7d %10.2f %10.2f %9.1f", bytes(r.size()),
                r.impl(), r.count(), r.p50Micros(), r.p99Micros(), r.mbPerSecond()))));
        return out;
    }
}
