package io.polylink.launcher;

import io.polylink.launcher.NodeState.State;
import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** {@code polylink stop}: SIGTERM to a running node, and a bounded wait for it to end. */
final class Stop {

    static final String HELP = """
        usage: polylink stop [--name NAME] [--timeout SECONDS]

        Stops a running node of this distribution (started with 'polylink start' or 'polylink node'):
        sends it SIGTERM, as Ctrl-C would, and waits for it to end. The node stops in order: its
        peers are told, what it delivered is acknowledged, its shm inbox, work folder and pid file
        are removed. A node that is not running is reported as such; a stale pid file it left is
        removed.

          --name NAME        the node's name (default: polylink)
          --timeout SECONDS  how long to wait for it to end (default 30); a node still running
                             then is reported and left running
          --help             this text

        Exit status: 0 the node has stopped, or was not running; 1 it was still running at the
        timeout, or could not be signalled; 2 for a bad option.""";

    private static final Set<String> OPTIONS = Set.of("--name", "--timeout");
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private Stop() {}

    static int run(String[] args) throws IOException, Answered {
        NodeArgs options = NodeArgs.of("stop", HELP, args, OPTIONS, Start.DEFAULT_NAME, Duration.ofSeconds(30));
        RunFolder run = Home.fromSystemProperty().run();
        String name = options.name();
        NodeState state = run.probe(name);
        if (state.state() != State.RUNNING) {
            return notRunning(run, name);
        }
        Optional<ProcessHandle> node = ProcessHandle.of(state.pid());
        if (state.pid() <= 0 || node.isEmpty()) {
            if (run.probe(name).state() != State.RUNNING) {
                return notRunning(run, name); // it ended just now
            }
            System.err.println("polylink stop: node " + name + " is starting and has not written its pid yet; "
                + "try again in a moment");
            return 1;
        }
        long start = System.nanoTime();
        if (!node.get().destroy()) {
            System.err.println("polylink stop: cannot send SIGTERM to node " + name + " (pid " + state.pid() + ")");
            return 1;
        }
        // Not a child of this process, so nothing tells when it ends: look. Freeing its name is the
        // last thing a node does; its process may then stay in the process table until reaped.
        while (node.get().isAlive() && holds(run, name, state.pid())) {
            if (System.nanoTime() - start > options.timeout().toNanos()) {
                System.err.println("polylink stop: node " + name + " (pid " + state.pid() + ") did not end within "
                    + options.timeout().toSeconds() + " s of SIGTERM and is still running; see "
                    + state.fact(NameClaim.LOG, "its log") + ". 'kill -9 " + state.pid() + "' ends it at once; its "
                    + "next start replaces the pid file it leaves.");
                return 1;
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
        NodeState after = run.removeStale(name);
        System.out.println(String.format(Locale.ROOT, "node %s (pid %d) stopped in %.1f s%s", name, state.pid(),
            (System.nanoTime() - start) / 1e9, after.state() == State.STALE
                ? "; it ended without removing its pid file, which is removed now" : ""));
        return 0;
    }

    private static boolean holds(RunFolder run, String name, long pid) throws IOException {
        NodeState now = run.probe(name);
        return now.state() == State.RUNNING && now.pid() == pid;
    }

    private static int notRunning(RunFolder run, String name) throws IOException {
        NodeState removed = run.removeStale(name);
        switch (removed.state()) {
            case STALE -> System.out.println("node " + name + " is not running; removed the pid file that pid "
                + removed.pid() + " left when it ended");
            case STOPPED -> System.out.println("node " + name + " is not running");
            case RUNNING -> {
                System.err.println("polylink stop: node " + name + " (pid " + removed.pid() + ") has just started; "
                    + "run stop again to stop it");
                return 1;
            }
        }
        return 0;
    }
}
