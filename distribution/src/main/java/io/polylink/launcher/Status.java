package io.polylink.launcher;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** {@code polylink status}: whether a node of this distribution runs, from what run/ says. */
final class Status {

    static final String HELP = """
        usage: polylink status [--name NAME]

        Says whether the node NAME of this distribution is running, with its pid, context id and
        methods; stopped; or stale: its pid file names a process that ended without removing it
        (killed, or the machine went down), which the node's next start replaces and
        'polylink stop' removes. Without --name, every node that has a pid file in run/.

          --name NAME   the node's name
          --help        this text

        Exit status, as for LSB init scripts: 0 running; 1 stale pid file; 3 stopped; 2 for a bad
        option. Without --name, 0.""";

    private static final Set<String> OPTIONS = Set.of("--name");

    private Status() {}

    static int run(String[] args) throws IOException, Answered {
        NodeArgs options = NodeArgs.of("status", HELP, args, OPTIONS, null, null);
        RunFolder run = Home.fromSystemProperty().run();
        if (options.name() == null) {
            list(run.probeAll());
            return 0;
        }
        NodeState node = run.probe(options.name());
        System.out.println(describe(node));
        return switch (node.state()) {
            case RUNNING -> 0;
            case STALE -> 1;
            case STOPPED -> 3;
        };
    }

    private static String describe(NodeState node) {
        String name = node.name();
        return switch (node.state()) {
            case RUNNING -> {
                String state = node.fact(NameClaim.STATE, NameClaim.STARTING);
                yield "node " + name + " is running" + (state.equals(NameClaim.UP) ? "" : " (" + state + ")")
                    + ": pid " + node.pid() + ", since " + node.fact(NameClaim.STARTED, "?")
                    + "\n  context  " + node.fact(NameClaim.CONTEXT, "(not up yet)")
                    + "\n  methods  " + node.fact(NameClaim.METHODS, "")
                    + "\n  log      " + node.fact(NameClaim.LOG, "(not in a file: see conf/logging.properties)")
                    + "\n  storage  " + node.fact(NameClaim.STORAGE, "?");
            }
            case STALE -> "node " + name + " is not running, but its pid file is stale: pid " + node.pid()
                + " ended without removing it (it was killed, or the machine went down). Its next start replaces "
                + "it; 'polylink stop --name " + name + "' removes it.";
            case STOPPED -> "node " + name + " is stopped";
        };
    }

    private static void list(List<NodeState> nodes) {
        if (nodes.isEmpty()) {
            System.out.println("no node of this distribution is running (run/ has no pid file)");
            return;
        }
        String row = "%-20s %-9s %-8s %-37s %s";
        System.out.println(String.format(Locale.ROOT, row, "NAME", "STATE", "PID", "CONTEXT", "METHODS"));
        for (NodeState node : nodes) {
            String state = switch (node.state()) {
                case RUNNING -> node.fact(NameClaim.STATE, NameClaim.STARTING).equals(NameClaim.UP) ? "running"
                    : node.fact(NameClaim.STATE, NameClaim.STARTING);
                case STALE -> "stale";
                case STOPPED -> "stopped";
            };
            boolean running = node.state() == NodeState.State.RUNNING;
            System.out.println(String.format(Locale.ROOT, row, node.name(), state, node.pid(),
                running ? node.fact(NameClaim.CONTEXT, "-") : "-", running ? node.fact(NameClaim.METHODS, "-") : "-"));
        }
    }
}
