package io.polylink.launcher;

import io.polylink.launcher.NodeState.State;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code polylink start}: a node in the background, {@code polylink node --daemon} in a process of
 * its own, and the wait until its context is up, as the facts it writes into run/ say.
 */
final class Start {

    static final String HELP = """
        usage: polylink start [--name NAME] [--conf DIR] [--keep-state] [--timeout SECONDS]

        Starts a node in the background, as 'polylink node --daemon --name NAME', and returns once
        its context is up. The node's pid is in run/NAME.pid while it runs, it logs to
        logs/NAME.log (as conf/logging.properties says), and what it prints on its console is
        appended to logs/NAME.out. 'polylink status' shows it and 'polylink stop' stops it. A node
        of that name that is already running is left as it is.

          --name NAME        the node's name (default: polylink); letters, digits, '.', '_', '-'
          --conf DIR         the configuration folder instead of conf/ (see 'polylink node --help')
          --keep-state       keep bundles installed while the node runs for its next start, in
                             state/NAME/ (see 'polylink node --help')
          --timeout SECONDS  how long to wait for the context to come up (default 60)
          --help             this text

        Exit status: 0 the node is up; 1 it did not come up (the message says why and whether it
        still runs); 2 for a bad option; 3 a node of that name is already running (the message
        gives its pid).""";

    static final String DEFAULT_NAME = "polylink";

    private static final Set<String> OPTIONS = Set.of("--name", "--conf", "--keep-state", "--timeout");
    private static final int TAIL_LINES = 20;

    private Start() {}

    static int run(String[] args) throws IOException, InterruptedException, Answered {
        NodeArgs options = NodeArgs.of("start", HELP, args, OPTIONS, DEFAULT_NAME, Duration.ofSeconds(60));
        Home home = Home.fromSystemProperty();
        String name = options.name();
        NodeState before = home.run().probe(name);
        if (before.state() == State.RUNNING) {
            System.err.println("polylink start: " + new NameTakenException(name, before.pid()).getMessage());
            return Node.NAME_TAKEN;
        }
        if (before.state() == State.STALE) {
            System.out.println("polylink start: node " + name + " (pid " + before.pid() + ") ended without removing "
                + "its pid file; the new node replaces it");
        }
        Path out = console(home, name);
        List<String> command = new ArrayList<>(List.of(home.root().resolve("bin/polylink").toString(), "node",
            "--daemon", "--name", name));
        if (options.conf() != null) {
            command.addAll(List.of("--conf", options.conf().toString()));
        }
        if (options.keepState()) {
            command.add("--keep-state");
        }
        Process node = new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile()))
            .start();
        return awaitUp(home, name, node, out, options.timeout());
    }

    /** @return the file the node's console output is appended to, with a line that marks this start */
    private static Path console(Home home, String name) throws IOException {
        Path out = home.logs().resolve(name + ".out");
        Files.createDirectories(out.getParent());
        Files.writeString(out, mark(name) + ", " + Instant.now() + "\n", StandardCharsets.UTF_8,
            StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        return out;
    }

    private static String mark(String name) {
        return "--- polylink start --name " + name + " (pid " + ProcessHandle.current().pid() + ")";
    }

    private static int awaitUp(Home home, String name, Process node, Path out, Duration timeout)
            throws IOException, InterruptedException {
        String pid = Long.toString(node.pid()); // bin/polylink execs the JVM: the node's pid
        long deadline = System.nanoTime() + timeout.toNanos();
        // Each turn waits for the node to end, up to 50 ms, and then reads what it wrote into run/.
        while (!node.waitFor(50, TimeUnit.MILLISECONDS)) {
            Map<String, String> facts = home.run().facts(name);
            if (pid.equals(facts.get(NameClaim.PID)) && NameClaim.UP.equals(facts.get(NameClaim.STATE))) {
                System.out.println("node " + name + " up (pid " + pid + "): context " + facts.get(NameClaim.CONTEXT)
                    + ", methods " + facts.get(NameClaim.METHODS));
                System.out.println("log: " + facts.getOrDefault(NameClaim.LOG, out.toString()));
                return 0;
            }
            if (System.nanoTime() - deadline > 0) {
                System.err.println("polylink start: node " + name + " (pid " + pid + ") did not come up within "
                    + timeout.toSeconds() + " s; it is still running. See " + facts.getOrDefault(NameClaim.LOG, "its log")
                    + " and " + out + "; 'polylink stop --name " + name + "' stops it.");
                return 1;
            }
        }
        int status = node.exitValue();
        System.err.println("polylink start: node " + name + " ended with exit status " + status
            + " before its context came up. What it printed (" + out + "):\n" + printed(name, out));
        return status == Node.NAME_TAKEN ? Node.NAME_TAKEN : 1;
    }

    /** @return the console output since this start's mark, up to its last lines */
    private static String printed(String name, Path out) throws IOException {
        List<String> lines = new String(Files.readAllBytes(out), StandardCharsets.UTF_8).lines().toList();
        int from = lines.size();
        while (from > 0 && !lines.get(from - 1).startsWith(mark(name))) {
            from--;
        }
        return String.join("\n", lines.subList(Math.max(from, lines.size() - TAIL_LINES), lines.size()));
    }
}
