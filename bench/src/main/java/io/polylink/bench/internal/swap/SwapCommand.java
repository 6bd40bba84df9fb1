package io.polylink.bench.internal.swap;

import io.polylink.Context;
import io.polylink.Descriptor;
import io.polylink.Startpoint;
import io.polylink.bench.internal.BenchTransforms;
import io.polylink.bench.internal.LoadAverage;
import io.polylink.bench.internal.Processors;
import io.polylink.bench.internal.pingpong.ChildJvm;
import io.polylink.bench.internal.pingpong.TempDirectory;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.naming.DirectoryNameRegistry;
import io.polylink.method.shm.internal.ShmMethod;
import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.testkit.EchoStreams;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code swap} command: RSRs flow between this process and a Felix node while the node
 * updates its own method and transform bundles, again and again; what arrives is checked for
 * loss, duplicates and order, and the senders' stalls are timed.
 */
public final class SwapCommand {

    static final String HELP = """
        usage: java -jar polylink-bench.jar swap [--cycles N] [--targets LIST] [--senders N] [--window N]
                    [--progress N] [--size BYTES] [--csv] [--verbose] [--timeout S] [--jvm-opt OPT]...

        Hot swap under traffic, between two processes on one host. A node process runs a real Apache
        Felix framework with the bundles this jar carries (Felix SCR, Config Admin, lz4-java and
        polylink's api, core, tcp, shm and lz4 bundles); this process runs an embedded context with
        tcp, shm and lz4, and SENDERS threads that each send a numbered stream of RSRs to the
        node's system endpoint, which echoes every one back (at most WINDOW unechoed per sender,
        SIZE-byte JSON-like payloads). Per target, in turn:
          tcp   requests and echoes prefer tcp (shm second); the node updates io.polylink.method.tcp
          shm   requests and echoes prefer shm (tcp second); the node updates io.polylink.method.shm
          lz4   requests prefer tcp; echoes prefer lz4/tcp, then tcp; the node updates
                io.polylink.method.compress
        A cycle is one update inside the node: Bundle.update() from the bundle's own jar (the old
        revision stops, a new class loader loads the new one, it starts), then
        FrameworkWiring.refreshBundles, then the wait until the context has the method or transform
        again; then PROGRESS more echoes before the next cycle. The node's links move to the other
        stack and back; this process's links move when their connection breaks. Before each
        target, PROGRESS echoes over its tables are not counted (their first sends connect). As the
        baseline, the same traffic with no update for as long as a target took on average (row
        "none", not in the CSV). A short warm-up before the targets is not counted.

        Per target: sent (RSRs whose send returned; a refused send is tried again with the same
        number), delivered (echoes, copies included), lost, duplicated, reordered, and
        max_stall_ms: the longest a sender waited for send() to take one RSR, refused attempts
        included. The table also shows the longest gap between two echoes, the sends refused, the
        update's time in the node and how many cycles found this side's requests on the target.
        Targets: 0 lost, duplicated, reordered (exit status 1 otherwise); every send stall below
        100 ms (reported, not enforced: it depends on the machine's load).

        options:
          --cycles N     updates per target (default 20)
          --targets LIST comma-separated, of tcp, shm, lz4 (default all three, in that order)
          --senders N    sender threads (default 8)
          --window N     unechoed RSRs per sender (default 256)
          --progress N   echoes awaited after each update (default 200)
          --size BYTES   payload per RSR (default 128; lz4 compresses payloads from 64 bytes)
          --timeout S    bound on every wait: the node's answer, a batch of echoes (default 60)
          --jvm-opt OPT  an option for the node's JVM (repeatable)
          --verbose      each update's steps in the node (ms from its start) on stderr
          --csv          print only the CSV header target,cycles,sent,delivered,lost,duplicated,reordered,max_stall_ms
                         and one row per target
        """;

    static final String CSV_HEADER = "target,cycles,sent,delivered,lost,duplicated,reordered,max_stall_ms";
    static final double STALL_TARGET_MS = 100;
    private static final String NODE_NAME = "swap-node";
    private static final String BASELINE = "none";
    private static final Pattern UPDATE_MS = Pattern.compile("^in ([0-9.]+) ms");

    /** What one target's cycles did. */
    private record Outcome(String target, int cycles, EchoStreams.Result result, double[] updateMillis,
                           int requestsOnTarget, long receivedTcp, long receivedShm, long nanos, String failure) {}

    private SwapCommand() {}

    /**
     * @param out where the table or CSV goes; progress and errors go to stderr
     * @return the process exit status: 0 if nothing was lost, duplicated or reordered
     */
    public static int run(String[] args, PrintStream out) throws Exception {
        SwapOptions options;
        try {
            options = SwapOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("swap: " + e.getMessage());
            System.err.print(HELP);
            return 2;
        }
        if (options == null) {
            out.print(HELP);
            return 0;
        }
        String loadBefore = LoadAverage.now();
        System.err.println("swap: load average before: " + loadBefore);
        List<Outcome> outcomes = new ArrayList<>();
        try (TempDirectory dir = TempDirectory.create("polylink-bench-swap-")) {
            Path felix = extractBundles(dir.path().resolve("bundles"));
            try (ChildJvm node = ChildJvm.start(NODE_NAME, options.jvmOptions(), List.of(felix),
                    List.of(SwapNode.COMMAND, "--dir", dir.path().toString(), "--name", NODE_NAME));
                 EmbeddedContext here = context(dir.path());
                 EchoStreams streams = new EchoStreams(here.context(), options.senders(), options.window(), options.size())) {
                long limit = TimeUnit.SECONDS.toNanos(options.timeoutSeconds());
                System.err.println("swap: " + awaitUp(node, limit));
                Startpoint atNode = lookup(here.context(), limit);
                warmUp(options, streams, atNode);
                for (String target : options.targets()) {
                    outcomes.add(cycles(target, options, node, here, streams, atNode));
                }
                long mean = (long) outcomes.stream().mapToLong(Outcome::nanos).average().orElse(0);
                outcomes.add(0, baseline(options, streams, atNode, mean));
            }
        }
        String loadAfter = LoadAverage.now();
        System.err.println("swap: load average after: " + loadAfter);
        if (options.csv()) {
            out.println(CSV_HEADER);
            for (Outcome o : outcomes.subList(1, outcomes.size())) {
                EchoStreams.Result r = o.result();
                out.printf(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%d,%.1f%n", o.target(), o.cycles(), r.sent(), r.delivered(),
                    r.lost(), r.duplicated(), r.reordered(), r.maxStallNanos() / 1e6);
            }
        } else {
            table(outcomes, options, loadBefore, loadAfter, out);
        }
        boolean perfect = outcomes.stream().allMatch(o -> o.failure() == null && o.result().perfect());
        return perfect ? 0 : 1;
    }

    /** One target: its phase of traffic with {@code cycles} updates in the node. */
    private static Outcome cycles(String target, SwapOptions options, ChildJvm node, EmbeddedContext here,
                                  EchoStreams streams, Startpoint atNode) throws InterruptedException {
        String method = target.equals("lz4") ? "tcp" : target;
        String bundle = target.equals("lz4") ? "io.polylink.method.compress" : "io.polylink.method." + target;
        Startpoint requests = atNode.copy().editTable(t -> t.prefer(method));
        Startpoint replies = streams.sink().copy().editTable(t -> t.prefer(method));
        if (target.equals("lz4")) {
            Descriptor tcp = here.context().descriptorTable().entries().stream()
                .filter(d -> d.stack().equals("tcp")).findFirst().orElseThrow();
            replies.editTable(t -> t.insert(0, tcp.withStack("lz4/tcp")));
        }
        Duration limit = Duration.ofSeconds(options.timeoutSeconds());
        long tcpBefore = here.method("tcp").statistics().messagesReceived();
        long shmBefore = here.method("shm").statistics().messagesReceived();
        double[] updates = new double[options.cycles()];
        int onTarget = 0;
        int done = 0;
        String failure = null;
        System.err.printf(Locale.ROOT, "swap: %s: %d updates of %s under traffic%n", target, options.cycles(), bundle);
        // Not counted: the tables' first sends dial and announce them, which is no swap's doing.
        streams.begin(target + " (settling)", requests, replies);
        try {
            streams.awaitEchoes(options.progress(), limit);
        } finally {
            streams.end(limit);
        }
        long start = System.nanoTime();
        streams.begin(target, requests, replies);
        try {
            streams.awaitEchoes(options.progress(), limit);
            for (; done < options.cycles(); done++) {
                if (streams.requestStack().equals(target)) {
                    onTarget++;
                }
                long stallBefore = streams.takeRecentStall();
                long gapBefore = streams.takeRecentGap();
                String answer = command(node, "update " + bundle, limit);
                updates[done] = updateMillis(answer);
                streams.awaitEchoes(options.progress(), limit);
                if (options.verbose()) {
                    System.err.printf(Locale.ROOT, "swap: %s cycle %d: update %s; then requests on %s; longest send "
                        + "stall (gap between echoes) %.1f (%.1f) ms before the update, %.1f (%.1f) ms from it to %d echoes "
                        + "after%n", target, done + 1, answer, streams.requestStack(), stallBefore / 1e6, gapBefore / 1e6,
                        streams.takeRecentStall() / 1e6, streams.takeRecentGap() / 1e6, options.progress());
                }
            }
        } catch (IllegalStateException e) {
            failure = e.getMessage();
            System.err.println("swap: " + target + " failed after " + done + " cycles: " + failure);
        }
        EchoStreams.Result result = streams.end(limit);
        if (!result.perfect()) {
            System.err.println("swap: " + result);
        }
        return new Outcome(target, done, result, Arrays.copyOf(updates, done), onTarget,
            here.method("tcp").statistics().messagesReceived() - tcpBefore,
            here.method("shm").statistics().messagesReceived() - shmBefore, System.nanoTime() - start, failure);
    }

    /** A phase over the tables' own first choice, not counted: the first connections, the JIT. */
    private static void warmUp(SwapOptions options, EchoStreams streams, Startpoint atNode) {
        streams.begin("warm-up", atNode.copy(), streams.sink().copy());
        try {
            streams.awaitEchoes(options.progress() * 10L, Duration.ofSeconds(options.timeoutSeconds()));
        } finally {
            streams.end(Duration.ofSeconds(options.timeoutSeconds()));
        }
    }

    /**
     * The same traffic with no update, over the tables' own first choice (shm), for as long as a
     * target's phase took on average: the stalls and gaps this machine shows anyway.
     */
    private static Outcome baseline(SwapOptions options, EchoStreams streams, Startpoint atNode, long nanos) {
        Duration limit = Duration.ofSeconds(options.timeoutSeconds());
        System.err.printf(Locale.ROOT, "swap: baseline: %.1f s with no update%n", nanos / 1e9);
        long start = System.nanoTime();
        streams.begin(BASELINE, atNode.copy(), streams.sink().copy());
        String failure = null;
        try {
            while (System.nanoTime() - start < nanos) {
                streams.awaitEchoes(options.progress(), limit);
            }
        } catch (IllegalStateException e) {
            failure = e.getMessage();
        }
        EchoStreams.Result result = streams.end(limit);
        return new Outcome(BASELINE, 0, result, new double[0], 0, 0, 0, System.nanoTime() - start, failure);
    }

    /** This process's context: tcp on 127.0.0.1, shm in the run's directory, lz4, the run's registry. */
    private static EmbeddedContext context(Path dir) {
        EmbeddedContext here = EmbeddedContext.open();
        try {
            here.add(new ShmMethod(Map.of("directory", dir.resolve("shm").toString())), 20)
                .add(new TcpMethod(Map.of("bindAddress", "127.0.0.1")), 50)
                .add(BenchTransforms.lz4())
                .registry(new DirectoryNameRegistry(dir.resolve("registry")));
            return here;
        } catch (RuntimeException | Error e) {
            here.close();
            throw e;
        }
    }

    /** Copies the framework and bundle jars this jar carries into {@code into}. @return the framework's jar */
    static Path extractBundles(Path into) throws IOException {
        Files.createDirectories(into);
        List<String> all = new ArrayList<>(SwapNode.BUNDLES);
        all.add(SwapNode.FRAMEWORK);
        for (String name : all) {
            String resource = "/swap-node/" + name + ".jar";
            try (InputStream in = SwapCommand.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IOException("this bench jar has no " + resource + ": it was built without the node's "
                        + "bundles; build it with 'mvn package' (the bench module copies them in)");
                }
                Files.copy(in, into.resolve(name + ".jar"));
            }
        }
        return into.resolve(SwapNode.FRAMEWORK + ".jar");
    }

    private static String awaitUp(ChildJvm node, long limitNanos) throws InterruptedException {
        long deadline = System.nanoTime() + limitNanos;
        while (true) {
            String line = node.nextLine(deadline);
            if (line.startsWith(SwapNode.UP)) {
                return "the Felix node is up: " + line.substring(SwapNode.UP.length());
            }
            System.err.println(NODE_NAME + ": " + line);
        }
    }

    /**
     * Sends a command to the node and waits for its answer.
     *
     * @return what the node said after the command, e.g. its times
     * @throws IllegalStateException with the node's reason if it failed, or if it did not answer in time
     */
    private static String command(ChildJvm node, String command, Duration limit) throws InterruptedException {
        try {
            node.println(command);
        } catch (IOException e) {
            throw new IllegalStateException("the node no longer takes commands (" + e.getMessage() + ")", e);
        }
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            String line = node.nextLine(deadline);
            if (line.startsWith(SwapNode.DONE + command + " ")) {
                return line.substring(SwapNode.DONE.length() + command.length() + 1);
            }
            if (line.startsWith(SwapNode.FAILED + command)) {
                throw new IllegalStateException("the node could not " + line.substring(SwapNode.FAILED.length()));
            }
            System.err.println(NODE_NAME + ": " + line);
        }
    }

    private static double updateMillis(String answer) {
        Matcher m = UPDATE_MS.matcher(answer);
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }

    /** The node's system endpoint, once it published a table with tcp and shm (the registry is a directory: polled). */
    private static Startpoint lookup(Context context, long limitNanos) {
        long deadline = System.nanoTime() + limitNanos;
        while (true) {
            Optional<Startpoint> found = context.lookup(NODE_NAME);
            if (found.isPresent() && found.get().targets().get(0).table().entries().stream().map(Descriptor::method)
                    .toList().containsAll(List.of("tcp", "shm"))) {
                return found.get();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the node did not publish its endpoint with tcp and shm in time; found "
                    + found);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    private static void table(List<Outcome> outcomes, SwapOptions options, String loadBefore, String loadAfter,
                              PrintStream out) {
        out.printf(Locale.ROOT, "swap between two processes on one host, %s; load average (1, 5, 15 min) before %s, "
            + "after %s%n", Processors.describe(), loadBefore, loadAfter);
        out.printf(Locale.ROOT, "a Felix node updates its bundles; this process sends: %d senders, window %d, %d-byte RSRs, "
            + "%d echoes between updates%n%n", options.senders(), options.window(), options.size(), options.progress());
        out.printf(Locale.ROOT, "%-6s %6s %7s %10s %10s %5s %5s %6s %10s %9s %8s %17s %10s %10s %10s%n", "target",
            "cycles", "secs", "sent", "delivered", "lost", "dup", "reord", "stall ms", "gap ms", "refused",
            "update ms p50/max", "req on it", "rx tcp", "rx shm");
        for (Outcome o : outcomes) {
            EchoStreams.Result r = o.result();
            double[] u = o.updateMillis().clone();
            Arrays.sort(u);
            String update = u.length == 0 ? "-" : String.format(Locale.ROOT, "%.1f / %.1f", u[u.length / 2], u[u.length - 1]);
            String onIt = o.target().equals("lz4") || o.target().equals(BASELINE) ? "-"
                : o.requestsOnTarget() + "/" + o.cycles();
            out.printf(Locale.ROOT, "%-6s %6d %7.1f %10d %10d %5d %5d %6d %10.1f %9.1f %8d %17s %10s %10d %10d%n",
                o.target(), o.cycles(), o.nanos() / 1e9, r.sent(), r.delivered(), r.lost(), r.duplicated(), r.reordered(), r.maxStallNanos() / 1e6,
                r.maxGapNanos() / 1e6, r.refused(), update, onIt, o.receivedTcp(), o.receivedShm());
        }
        out.println();
        out.println("stall: the longest one send() took to accept an RSR; gap: the longest time without an echo; "
            + "req on it: cycles whose update found this side's requests on the target (a link that fell back "
            + "because the node's method was away stays on the fallback); rx: frames this side received per method");
        out.println("targets:");
        for (Outcome o : outcomes.subList(1, outcomes.size())) {
            EchoStreams.Result r = o.result();
            out.printf(Locale.ROOT, "  %-4s 0 lost, duplicated, reordered: %s; every send stall < %.0f ms: %s (%.1f ms)%s%n",
                o.target(), r.perfect() && o.failure() == null ? "met" : "MISSED", STALL_TARGET_MS,
                r.maxStallNanos() / 1e6 < STALL_TARGET_MS ? "met" : "MISSED", r.maxStallNanos() / 1e6,
                o.failure() == null ? "" : "; stopped after " + o.cycles() + " cycles: " + o.failure());
            if (!r.refusals().isEmpty()) {
                out.println("       refused sends, the first: " + r.refusals());
            }
        }
    }
}
