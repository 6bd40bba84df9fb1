package io.polylink.launcher;

import io.polylink.launcher.ShellNode.NodeFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code polylink demo}: two nodes in separate JVMs on this machine, driven through their Gogo
 * consoles with the demo bundle's commands (lib/demo/polylink-demo.jar). Shows the tables, the
 * link's selection and why, a latency table, lz4 stacked on at run time, and the link moving from
 * shm to tcp and back while a numbered stream of RSRs flows, counted honestly at both ends.
 */
final class Demo {

    static final String HELP = """
        usage: polylink demo [--count N] [--sizes LIST] [--stream N]

        Starts two nodes, alpha and beta, as separate processes on this machine (tcp on 127.0.0.1,
        shm in a segment directory of their own) and shows, step by step:
          1. each node's descriptor table;
          2. which method the link alpha -> beta chose (shm) and why, entry by entry;
          3. a ping-pong alpha <-> beta: round-trip latency p50 and p99 per message size;
          4. lz4 stacked on at run time: the link's table is edited to put lz4/shm first;
          5. a numbered stream of RSRs alpha -> beta while the shm bundle is uninstalled on alpha
             (the link moves to tcp) and installed again from repo/ (the link moves back);
          6. what beta received: sent, delivered, lost, duplicated, reordered.
        An RSR counts as sent only if send() returned. Exit code 0 only if none was lost,
        duplicated or reordered; 1 otherwise or if a step failed; 2 for a bad option.
        Every process and file of the demo is removed at the end, also after a failure or Ctrl-C.
        The nodes' full output is in logs/demo-alpha.log and logs/demo-beta.log.

          --count N     ping-pong round trips per size (default 1000; 1 to 100000)
          --sizes LIST  ping-pong message sizes in bytes, comma-separated (default 16,1024,65536;
                        each 1 to 1048576)
          --stream N    RSRs of the stream in each of its three phases: before, during and after
                        the swap (default 20000; 100 to 10000000)
          --help        this text""";

    private static final Duration START_LIMIT = Duration.ofSeconds(60);
    private static final Duration COMMAND_LIMIT = Duration.ofSeconds(30);
    private static final Pattern BUNDLE_ID = Pattern.compile("Bundle ID: (\\d+)");
    private static final Pattern RESULT = Pattern.compile(
        "stream result: sent=(\\d+) delivered=(\\d+) lost=(\\d+) duplicated=(\\d+) reordered=(\\d+) "
            + "failed-sends=(\\d+) arrived-despite-failure=(\\d+)");

    private final Home home;
    private final DemoOptions options;
    private final Narrator say = new Narrator();
    private final List<ShellNode> nodes = new ArrayList<>();
    private DemoWorkspace workspace;
    private boolean cleanedUp;
    private volatile boolean interrupted;

    private Demo(Home home, DemoOptions options) {
        this.home = home;
        this.options = options;
    }

    static int run(String[] args) {
        DemoOptions options;
        try {
            options = DemoOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("polylink demo: " + e.getMessage() + "\n" + HELP);
            return 2;
        }
        if (options == null) {
            System.out.println(HELP);
            return 0;
        }
        return new Demo(Home.fromSystemProperty(), options).call();
    }

    private int call() {
        Thread hook = new Thread(() -> {
            interrupted = true;
            cleanUp();
        }, "polylink-demo-cleanup");
        Runtime.getRuntime().addShutdownHook(hook); // Ctrl-C: stop the nodes, remove the files
        try {
            workspace = DemoWorkspace.create(home);
            return script() ? 0 : 1;
        } catch (NodeFailure | IOException e) {
            say.line("");
            say.line(interrupted ? "demo interrupted" : "demo FAILED: " + e.getMessage());
            return 1;
        } finally {
            cleanUp();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or ran: nothing left to remove
            }
        }
    }

    private boolean script() throws IOException {
        say.line("polylink demo: two nodes, alpha and beta, in separate JVMs on this machine");
        say.step("starting nodes alpha and beta");
        ShellNode alpha = startNode("alpha");
        ShellNode beta = startNode("beta");
        awaitUpWithDemoCommands(alpha, beta);

        say.section("1. Descriptor tables: what each context advertises, fastest first (polylink:table)");
        for (ShellNode node : List.of(alpha, beta)) {
            say.block(node.name(), node.run("polylink:table", COMMAND_LIMIT));
        }

        say.section("2. Selection of the link alpha -> beta, entry by entry (Startpoint.explain())");
        say.block("alpha", alpha.run("demo:explain beta", COMMAND_LIMIT));

        say.section("3. Ping-pong alpha <-> beta: " + options.count() + " round trips per size");
        pingPong(alpha);

        say.section("4. lz4 stacked on at run time: alpha edits the link's table to put lz4/shm first");
        say.block("alpha", alpha.run("demo:lz4 beta", COMMAND_LIMIT));
        pingPong(alpha);

        say.section("5. Hot swap under a numbered stream of RSRs alpha -> beta");
        swapUnderStream(alpha);

        say.section("6. What beta received");
        return verdict(beta.run("demo:tally 10000", COMMAND_LIMIT));
    }

    private void awaitUpWithDemoCommands(ShellNode... nodes) {
        for (ShellNode node : nodes) {
            String prefix = "polylink node " + node.nodeName() + " ";
            String up = node.awaitLine(prefix + "up", START_LIMIT);
            say.step(node.name() + " (pid " + node.pid() + ") " + up.substring(prefix.length()));
        }
        Path demoBundle = home.lib().resolve("demo/polylink-demo.jar");
        say.step("installing the demo commands (" + home.root().relativize(demoBundle) + ") on both nodes");
        for (ShellNode node : nodes) {
            installAndStart(node, demoBundle);
        }
    }

    /** Out of shm and back while the stream flows: the sender's selection moves the link. */
    private void swapUnderStream(ShellNode sender) throws IOException {
        say.step(String.join(" ", sender.run("demo:start beta", COMMAND_LIMIT)));
        flow(sender);
        say.step("alpha g! uninstall io.polylink.method.shm");
        sender.run("uninstall io.polylink.method.shm", COMMAND_LIMIT);
        say.block("alpha", sender.run("demo:await tcp 10000", COMMAND_LIMIT));
        flow(sender);
        Path shmBundle = repoBundle("polylink-method-shm-");
        say.step("alpha g! install " + shmBundle.toUri() + " and start it");
        installAndStart(sender, shmBundle);
        say.block("alpha", sender.run("demo:await lz4/shm 10000", COMMAND_LIMIT));
        flow(sender);
        say.block("alpha", sender.run("demo:finish", COMMAND_LIMIT));
    }

    /**
     * Starts a node that publishes itself as {@code name} in the demo's registry. Its node name,
     * which it holds in run/ while it runs, is the demo's own, so the demo never meets a node of
     * the user's called alpha or beta, nor another demo's.
     */
    private ShellNode startNode(String name) throws IOException {
        Path conf = workspace.conf(name);
        Path logs = Files.isWritable(home.logs()) ? home.logs() : conf;
        String nodeName = "demo-" + ProcessHandle.current().pid() + "-" + name;
        ShellNode node = ShellNode.start(home, conf, name, nodeName, logs.resolve("demo-" + name + ".log"));
        synchronized (this) {
            nodes.add(node);
        }
        return node;
    }

    private void installAndStart(ShellNode node, Path bundle) {
        String url = bundle.toUri().toString();
        List<String> installed = node.run("install " + url, COMMAND_LIMIT);
        Matcher id = BUNDLE_ID.matcher(String.join("\n", installed));
        if (!id.find()) {
            throw new NodeFailure("node " + node.name() + " did not install " + url + ": " + installed);
        }
        node.run("start " + id.group(1), COMMAND_LIMIT);
    }

    private void pingPong(ShellNode node) {
        say.line(String.format(Locale.ROOT, "   %-10s %8s %7s %10s %10s", "stack", "bytes", "count", "p50 us", "p99 us"));
        for (int size : options.sizes()) {
            for (String row : node.run("demo:pingpong beta " + size + " " + options.count(), Duration.ofSeconds(60))) {
                say.line("   " + row.replaceFirst("^latency ", ""));
            }
        }
    }

    private void flow(ShellNode sender) {
        say.step(String.join(" ", sender.run("demo:flow " + options.stream() + " 30000", Duration.ofSeconds(40))));
    }

    private Path repoBundle(String prefix) throws IOException {
        try (Stream<Path> files = Files.list(home.repo())) {
            return files.filter(p -> p.getFileName().toString().startsWith(prefix) && p.toString().endsWith(".jar"))
                .findFirst()
                .orElseThrow(() -> new NodeFailure("no " + prefix + "*.jar in " + home.repo()
                    + ": the distribution is incomplete; rebuild it"));
        }
    }

    private boolean verdict(List<String> tally) {
        Matcher m = RESULT.matcher(String.join("\n", tally));
        if (!m.find()) {
            say.block("beta", tally);
            say.line("demo FAILED: beta gave no stream result");
            return false;
        }
        long lost = Long.parseLong(m.group(3));
        long duplicated = Long.parseLong(m.group(4));
        long reordered = Long.parseLong(m.group(5));
        say.line(String.format(Locale.ROOT, "   sent %s   delivered %s   lost %d   duplicated %d   reordered %d", m.group(1), m.group(2),
            lost, duplicated, reordered));
        say.line(String.format(Locale.ROOT, "   (sends that threw, not counted as sent: %s; of those, arrived all the same: %s)",
            m.group(6), m.group(7)));
        tally.stream().filter(l -> l.startsWith("lost: ") || l.startsWith("reordered: "))
            .forEach(l -> say.line("   " + l));
        say.line("");
        if (lost + duplicated + reordered == 0) {
            say.line(String.format(Locale.ROOT, "demo passed in %.1f s: no RSR lost, duplicated or reordered across the swap",
                say.seconds()));
            return true;
        }
        say.line(String.format(Locale.ROOT, "demo FAILED in %.1f s: %d lost, %d duplicated, %d reordered across the swap", say.seconds(),
            lost, duplicated, reordered));
        return false;
    }

    /** Stops the nodes and removes the workspace; once, from the main thread or the shutdown hook. */
    private synchronized void cleanUp() {
        if (cleanedUp) {
            return;
        }
        cleanedUp = true;
        for (ShellNode node : nodes) {
            node.close();
        }
        if (workspace != null) {
            workspace.close();
        }
        if (!nodes.isEmpty()) {
            say.step("nodes stopped, shm segments and workspace removed");
        }
    }
}
