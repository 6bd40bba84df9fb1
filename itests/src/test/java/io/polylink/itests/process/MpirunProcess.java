package io.polylink.itests.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of a command of the built distribution (bin/polylink mpirun, or a documented command
 * line through bash) in a working directory, with both output streams in a log file. Every wait is
 * bounded and says what it waited for; closing kills whatever of the run is left, the ranks too.
 */
final class MpirunProcess implements AutoCloseable {

    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final Process process;
    private final Path log;
    private final String what;

    private MpirunProcess(Process process, Path log, String what) {
        this.process = process;
        this.log = log;
        this.what = what;
    }

    /** Runs {@code bin/polylink mpirun ARGS} in {@code work}, its job's files under {@code work/tmp}. */
    static MpirunProcess mpirun(Path work, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Installation.dist().resolve("bin/polylink").toString(), "mpirun",
            "--tmpdir", tmp(work).toString()));
        command.addAll(List.of(args));
        return start(work, command, Map.of(), "polylink mpirun " + String.join(" ", args));
    }

    /**
     * Runs a documented command line through bash in {@code work}, with {@code POLYLINK_HOME} set to
     * the distribution and the launcher's temporary files under {@code work/tmp}.
     */
    static MpirunProcess shell(Path work, String line) throws IOException {
        return start(work, List.of("bash", "-c", line), Map.of("POLYLINK_HOME", Installation.dist().toString(),
            "POLYLINK_JAVA_OPTS", "-Djava.io.tmpdir=" + tmp(work)), line);
    }

    /** @return where the runs in {@code work} keep their jobs' files: empty once every run ended */
    static Path tmp(Path work) throws IOException {
        return Files.createDirectories(work.resolve("tmp"));
    }

    private static MpirunProcess start(Path work, List<String> command, Map<String, String> env, String what)
            throws IOException {
        Path log = Files.createTempFile(Files.createDirectories(work.resolve("logs")), "run-", ".log");
        ProcessBuilder b = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE);
        b.environment().putAll(env);
        return new MpirunProcess(b.start(), log, what);
    }

    long pid() {
        return process.pid();
    }

    /** Writes {@code line} to the run's standard input, which mpirun gives rank 0. */
    void input(String line) throws IOException {
        process.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().flush();
    }

    /** @return everything the run printed so far */
    String output() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    /**
     * Waits until the output has a match of {@code regex}.
     *
     * @return the match
     * @throws AssertionError with the output if there is none within {@code limit}, or the run ended without
     */
    Matcher awaitMatch(String regex, Duration limit) throws IOException {
        Pattern p = Pattern.compile(regex, Pattern.MULTILINE);
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            boolean ended = !process.isAlive();
            Matcher m = p.matcher(output());
            if (m.find()) {
                return m;
            }
            if (ended || System.nanoTime() - deadline > 0) {
                throw new AssertionError(what + (ended ? " ended" : " ran " + limit) + " without printing a match of '"
                    + regex + "':\n" + output());
            }
            LockSupport.parkNanos(POLL_NANOS); // a log file has no change event to wait on
        }
    }

    /**
     * @return the exit code
     * @throws AssertionError with the output if the run did not end within {@code limit}
     */
    int awaitExit(Duration limit) throws IOException, InterruptedException {
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(what + " did not end within " + limit + ":\n" + output());
        }
        return process.exitValue();
    }

    /** Sends SIGINT, as Ctrl-C does, to the run's process alone. */
    void interrupt() throws IOException, InterruptedException {
        LauncherRun.requireSigintDelivered();
        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill -INT " + process.pid() + " failed");
        }
    }

    /** Kills the run and whatever it started that still runs, and waits until they are gone. */
    @Override
    public void close() throws InterruptedException {
        LauncherRun.destroyTree(process);
    }
}
