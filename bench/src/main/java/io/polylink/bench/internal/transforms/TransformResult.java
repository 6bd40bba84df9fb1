package io.polylink.bench.internal.transforms;

import java.util.Locale;

/**
 * One transform at one size: raw library and polylink transform, MB (10^6 bytes of input) per
 * CPU-second of encode plus decode.
 *
 * @param wireRatio bytes on the wire over input bytes, through the transform
 */
record TransformResult(String transform, int size, double rawMbPerSecond, double polylinkMbPerSecond, double wireRatio) {

    static final String CSV_HEADER = "transform,size,raw_mb_per_s,polylink_mb_per_s,ratio";

    /** @return polylink over raw: 1.0 is as fast as the library alone */
    double ratio() {
        return rawMbPerSecond == 0 ? 0 : polylinkMbPerSecond / rawMbPerSecond;
    }

    String csvRow() {
        return String.format(Locale.ROOT, "%s,%d,%.1f,%.1f,%.3f", transform, size, rawMbPerSecond, polylinkMbPerSecond,
            ratio());
    }
}
