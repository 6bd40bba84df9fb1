package io.polylink.itests.embedding;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** {@code bin/karaf server} of a {@link KarafHome}, its output in a log file; closing it stops it for sure. */
final class KarafProcess implements AutoCloseable {

    private final Process process;
    private final Path output;

    private KarafProcess(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    static KarafProcess start(KarafHome home, Path output) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(home.root().resolve("bin/karaf").toString(), "server")
            .directory(home.root().toFile()).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        return new KarafProcess(builder.start(), output);
    }

    /** @return the console output and the end of data/log/karaf.log, for a failure's message */
    String describe(KarafHome home) {
        StringBuilder out = new StringBuilder("Karaf ").append(process.isAlive() ? "runs" : "ended with "
            + process.exitValue()).append("; its console:\n");
        out.append(tail(output, 20)).append("\nthe end of ").append(home.log()).append(":\n").append(tail(home.log(), 60));
        return out.toString();
    }

    private static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e + ")";
        }
    }

    /**
     * SIGTERM, which stops the framework; then SIGKILL for whatever is left after 30 s. Returns once
     * every process of the tree has ended: the launcher script ends before the JVM it started, which
     * goes on writing into Karaf's folder while it stops, and the folder is deleted after this.
     */
    @Override
    public void close() throws Exception {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(process.toHandle());
        tree.forEach(ProcessHandle::destroy);
        if (!ended(tree, 30)) {
            tree.forEach(ProcessHandle::destroyForcibly);
            if (!ended(tree, 10)) {
                throw new IllegalStateException("Karaf's processes " + tree.stream().filter(ProcessHandle::isAlive)
                    .map(ProcessHandle::pid).toList() + " did not end after SIGKILL");
            }
        }
    }

    private static boolean ended(List<ProcessHandle> tree, long seconds) throws Exception {
        try {
            CompletableFuture.allOf(tree.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new))
                .get(seconds, TimeUnit.SECONDS);
            return true;
        } catch (TimeoutException stillRunning) {
            return false;
        }
    }
}
