package io.polylink.bench.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The processors figures were measured on, printed with every figure: machines of the same size
 * differ, and a figure from one is no guide to another (copies that a large shared cache absorbs on
 * one go at the memory's pace on the next).
 */
public final class Processors {

    private Processors() {}

    /** @return "N cpus", with the processor's model where the system names it: "2 cpus (AMD EPYC 7B13)" */
    public static String describe() {
        int cpus = Runtime.getRuntime().availableProcessors();
        return cpus + " cpus" + model().map(m -> " (" + m + ")").orElse("");
    }

    /** @return the first processor's model name from /proc/cpuinfo; empty off Linux or if it names none */
    private static Optional<String> model() {
        try {
            return model(Files.readAllLines(Path.of("/proc/cpuinfo")));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** @return the first "model name" in {@code cpuinfo}'s lines, as x86 kernels write it; empty if none */
    static Optional<String> model(List<String> cpuinfo) {
        return cpuinfo.stream()
            .filter(line -> line.startsWith("model name") && line.indexOf(':') > 0)
            .map(line -> line.substring(line.indexOf(':') + 1).trim())
            .filter(name -> !name.isEmpty())
            .findFirst();
    }
}
