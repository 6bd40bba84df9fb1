package io.polylink.itests.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * Nodes an installation runs in the background ({@code polylink start}): not children of the test
 * JVM, so found by their pid files in run/, and killed for sure after a test.
 */
final class BackgroundNodes {

    private BackgroundNodes() {}

    /** @return the pid in run/NAME.pid, if there is one */
    static OptionalLong pid(Path home, String name) throws IOException {
        try {
            return OptionalLong.of(Long.parseLong(Files.readString(home.resolve("run").resolve(name + ".pid"),
                StandardCharsets.US_ASCII).strip()));
        } catch (NoSuchFileException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * kill -9 of every process of the installation that a pid file names, and a bounded wait for
     * each to end. A stale pid file's pid may be another process's by now: only a JVM started by
     * this installation's bin/polylink is killed.
     */
    static void killAll(Path home) throws IOException {
        Path run = home.resolve("run");
        if (!Files.isDirectory(run)) {
            return;
        }
        String ours = "-Dpolylink.home=" + home.toRealPath();
        List<ProcessHandle> killed = new ArrayList<>();
        try (Stream<Path> files = Files.list(run)) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".pid")).toList()) {
                String name = f.getFileName().toString().replaceFirst("\\.pid$", "");
                pid(home, name).stream().mapToObj(ProcessHandle::of).flatMap(Optional::stream)
                    .filter(p -> p.info().commandLine().orElse("").contains(ours))
                    .forEach(p -> {
                        p.destroyForcibly();
                        killed.add(p);
                    });
            }
        }
        for (ProcessHandle p : killed) {
            awaitGone(p.pid(), Duration.ofSeconds(30));
        }
    }

    /**
     * Waits until a process has ended and been reaped. A node started by {@code polylink start}
     * is reparented when the launcher ends, and its new parent reaps it in its own time.
     */
    static void awaitGone(long pid, Duration limit) {
        Driver.await(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true), limit,
            () -> "process " + pid + " has not ended");
    }
}
