package io.polylink.core.internal.observe;

import java.util.Locale;

/** Byte counts and durations as people read them: {@code 1.5 MiB}, {@code 85.2 us}. */
public final class Units {

    private static final String[] BINARY = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private Units() {}

    /** @return {@code 512 B}, {@code 1.5 KiB}, {@code 12.0 MiB}: three significant digits from a KiB on */
    public static String bytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        int unit = (63 - Long.numberOfLeadingZeros(bytes)) / 10 - 1;
        double value = bytes / Math.pow(1024, unit + 1);
        return String.format(Locale.ROOT, value < 10 ? "%.2f %s" : value < 100 ? "%.1f %s" : "%.0f %s", value,
            BINARY[unit]);
    }

    /** @return {@code 850 ns}, {@code 85.2 us}, {@code 12.3 ms}, {@code 1.20 s}: three significant digits */
    public static String nanos(long nanos) {
        if (nanos < 1000) {
            return nanos + " ns";
        }
        double value;
        String unit;
        if (nanos < 1_000_000) {
            value = nanos / 1e3;
            unit = "us";
        } else if (nanos < 1_000_000_000) {
            value = nanos / 1e6;
            unit = "ms";
        } else {
            value = nanos / 1e9;
            unit = "s";
        }
        return String.format(Locale.ROOT, value < 10 ? "%.2f %s" : value < 100 ? "%.1f %s" : "%.0f %s", value, unit);
    }
}
