package io.polylink.bench.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's load, printed with every figure: on a shared two-core machine it says how far to trust them. */
public final class LoadAverage {

    private LoadAverage() {}

    /** @return the 1, 5 and 15 minute load averages, or "unknown" off Linux */
    public static String now() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
