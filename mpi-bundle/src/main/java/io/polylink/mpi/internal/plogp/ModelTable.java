package io.polylink.mpi.internal.plogp;

import io.polylink.plogp.LinkModel;
import io.polylink.plogp.ModelDatabase;
import io.polylink.plogp.SizeParameters;
import java.util.Locale;

/** A link model as a table for people: a heading with {@code L}, then a line per size. */
final class ModelTable {

    private ModelTable() {}

    static String of(LinkModel m) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "P-LogP of %s, %s (%s), %s: L = %s us%n", m.stack(),
            ModelDatabase.text(m.location()), m.between(), m.measured().toString().replaceAll("\\.\\d+Z$", "Z"),
            time(m.latency())));
        out.append(String.format(Locale.ROOT, "%10s %10s %10s %10s %10s%n", "size", "os (us)", "or (us)", "g (us)",
            "RTT (us)"));
        for (SizeParameters s : m.sizes()) {
            out.append(String.format(Locale.ROOT, "%10s %10s %10s %10s %10s%n", size(s.bytes()), time(s.sendOverhead()),
                time(s.receiveOverhead()), time(s.gap()), time(s.roundTrip())));
        }
        return out.toString();
    }

    /** @return {@code 512 B}, {@code 64 KiB}, {@code 4 MiB} */
    static String size(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return bytes / (1 << 20) + " MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return bytes / 1024 + " KiB";
        }
        return bytes + " B";
    }

    /** @return three significant digits or so: {@code 0.214}, {@code 12.3}, {@code 1520} */
    static String time(double micros) {
        if (micros < 10) {
            return String.format(Locale.ROOT, "%.3f", micros);
        }
        return micros < 100 ? String.format(Locale.ROOT, "%.2f", micros)
            : micros < 1000 ? String.format(Locale.ROOT, "%.1f", micros) : String.format(Locale.ROOT, "%.0f", micros);
    }
}
