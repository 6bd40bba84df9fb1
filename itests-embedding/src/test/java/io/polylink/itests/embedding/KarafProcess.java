package io.polylink.itests.embedding;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

    /** SIGTERM, which stops the framework; then SIGKILL for whatever is left after 30 s. */
    @Override
    public void close() throws InterruptedException {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(process.toHandle());
        tree.forEach(ProcessHandle::destroy);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            tree.forEach(ProcessHandle::destroyForcibly);
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
