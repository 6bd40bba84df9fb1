package io.polylink.launcher;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;

/**
 * {@code polylink node}: one context in a Felix framework. Takes the node's name in run/, sets up
 * its logging, installs and starts every bundle in bundle/, lets FileInstall feed conf/ to Config
 * Admin and watch deploy/, and publishes the context's system endpoint under the node's name.
 * When the process ends (SIGTERM, Ctrl-C, the shell's end) the framework stops first, then the
 * name is freed.
 */
final class Node {

    static final String HELP = """
        usage: polylink node [--name NAME] [--daemon] [--conf DIR] [--keep-state]

        Runs one Polylink context in an Apache Felix framework, in the foreground, with the bundles
        in bundle/ and the configuration in conf/. The node publishes its system endpoint (echo,
        relay) in registry/ under its name, so other nodes can find it. While it runs, run/NAME.pid
        holds its pid; it logs as conf/logging.properties says (by default to logs/NAME.log). A name
        belongs to one running node: a second node of that name is refused and the first one's
        registry entry stays as it is. 'polylink start' runs a node in the background.

          --name NAME    the node's name (default: node-<pid>); letters, digits, '.', '_', '-'
          --daemon       no Gogo shell on the console; stop with SIGTERM (Ctrl-C)
          --conf DIR     the configuration folder instead of conf/: framework.properties,
                         logging.properties and one .cfg per PID, watched while the node runs
                         (default: <home>/conf)
          --keep-state   keep the framework's bundles for the next start of this name, in
                         state/NAME/: bundles installed while the node runs (from the shell, by
                         polylink:install or on demand) are there again. Without it every start
                         begins with bundle/'s bundles alone, and state/NAME/ is left alone.
          --help         this text

        Exit status: 0 once the node has stopped; 1 if it could not start; 2 for a bad option;
        3 if a node of that name is already running (the message gives its pid).""";

    /** The exit status of a node whose name a running node holds. */
    static final int NAME_TAKEN = 3;

    private static final Set<String> OPTIONS = Set.of("--name", "--daemon", "--conf", "--keep-state");
    private static final System.Logger LOG = System.getLogger("io.polylink.launcher");

    private final Home home;
    private final Path conf;
    private final NodeArgs options;
    private final NameClaim claim;
    private final String name;
    private volatile FrameworkStorage storage;
    private volatile Framework framework;

    private Node(Home home, Path conf, NodeArgs options, NameClaim claim) {
        this.home = home;
        this.conf = conf;
        this.options = options;
        this.claim = claim;
        this.name = options.name();
    }

    static int run(String[] args) throws Exception {
        NodeArgs options = NodeArgs.of("node", HELP, args, OPTIONS, "node-" + ProcessHandle.current().pid(), null);
        Home home = Home.fromSystemProperty();
        Path conf = options.conf() == null ? home.conf() : options.conf();
        if (!Files.isRegularFile(conf.resolve("framework.properties"))) {
            return usage(conf + " has no framework.properties: give --conf a copy of the distribution's conf/");
        }
        NameClaim claim;
        try {
            claim = home.run().claim(options.name());
        } catch (NameTakenException e) {
            System.err.println("polylink node: " + e.getMessage());
            return NAME_TAKEN;
        } catch (IOException e) {
            System.err.println("polylink node: cannot write the pid file of node " + options.name() + " in "
                + home.run().dir() + ": " + e);
            return 1;
        }
        return new Node(home, conf, options, claim).call();
    }

    private static int usage(String problem) {
        System.err.println("polylink node: " + problem + "\n" + HELP);
        return 2;
    }

    private int call() throws InterruptedException {
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "polylink-shutdown"));
        try {
            start();
        } catch (Exception e) {
            System.err.println("polylink node " + name + " cannot start: " + e);
            LOG.log(Level.ERROR, "node " + name + " cannot start", e);
            return 1;
        }
        framework.waitForStop(0);
        return 0;
    }

    private void start() throws Exception {
        Optional<Path> log = NodeLog.configure(home, conf, name);
        if (claim.replacedPid() != 0) {
            LOG.log(Level.WARNING, "node " + name + " replaced the stale pid file " + claim.pidFile() + " of pid "
                + claim.replacedPid() + ", which ended without removing it; its registry entry is replaced when "
                + "this context publishes");
        }
        storage = FrameworkStorage.of(home, name, options.keepState());
        long pid = ProcessHandle.current().pid();
        Map<String, String> facts = new HashMap<>(Map.of(NameClaim.PID, Long.toString(pid),
            NameClaim.STATE, NameClaim.STARTING, NameClaim.STARTED, Instant.now().toString(),
            NameClaim.STORAGE, storage.toString()));
        log.ifPresent(f -> facts.put(NameClaim.LOG, f.toString()));
        claim.put(facts);
        LOG.log(Level.INFO, "node " + name + " starting: pid " + pid + ", configuration " + conf
            + ", framework storage " + storage);
        log.ifPresent(f -> System.out.println("polylink node " + name + " logs to " + f));

        framework = ServiceLoader.load(FrameworkFactory.class).iterator().next().newFramework(frameworkProperties());
        framework.init();
        BundleContext context = framework.getBundleContext();
        BootBundles bundles = BootBundles.install(context, home.bundles());
        context.addServiceListener(new ContextFacts(claim), ContextFacts.FILTER);
        framework.start();
        Set<String> methods = Startup.start(context, bundles.boot(), conf);
        bundles.resume();
        String up = Startup.awaitContext(context, methods);
        if (up == null) {
            String problem = "polylink node " + name + ": the context did not come up with methods " + methods
                + " within 30 s; see the log";
            System.err.println(problem);
            LOG.log(Level.WARNING, problem);
        } else {
            claim.put(Map.of(NameClaim.STATE, NameClaim.UP));
            System.out.println("polylink node " + name + " up: " + up);
            System.out.flush();
            LOG.log(Level.INFO, "node " + name + " up: " + up);
        }
    }

    private Map<String, String> frameworkProperties() throws IOException {
        Map<String, String> properties = home.frameworkProperties(conf);
        properties.put("felix.fileinstall.dir", conf.toString());
        storage.configure(properties);
        properties.put("polylink.name", name);
        properties.put("polylink.home", home.root().toString());
        if (options.daemon()) {
            properties.put("gosh.args", "--nointeractive --noshutdown");
        }
        return properties;
    }

    /** The shutdown hook: the framework stops, its storage goes unless kept, then the name is freed. */
    private void stop() {
        try {
            claim.put(Map.of(NameClaim.STATE, NameClaim.STOPPING));
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot write " + name + "'s facts into run/: " + e.getMessage());
        }
        LOG.log(Level.INFO, "node " + name + " stopping");
        Framework f = framework;
        if (f != null) {
            try {
                f.stop();
                FrameworkEvent stopped = f.waitForStop(TimeUnit.SECONDS.toMillis(10));
                if (stopped.getType() == FrameworkEvent.WAIT_TIMEDOUT) {
                    LOG.log(Level.WARNING, "node " + name + ": the framework did not stop within 10 s");
                }
            } catch (BundleException | InterruptedException e) {
                LOG.log(Level.ERROR, "node " + name + ": stopping the framework failed", e);
            }
        }
        FrameworkStorage s = storage;
        if (s != null) {
            s.release();
        }
        try {
            claim.close();
        } catch (IOException e) {
            LOG.log(Level.WARNING, "node " + name + " could not remove its files in run/: " + e.getMessage());
        }
        LOG.log(Level.INFO, "node " + name + " stopped");
        NodeLog.close();
    }
}
