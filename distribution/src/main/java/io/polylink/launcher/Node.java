package io.polylink.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;

/**
 * {@code polylink node}: one context in a Felix framework. Installs and starts every bundle in
 * bundle/, lets FileInstall feed conf/ to Config Admin and watch deploy/, and publishes the
 * context's system endpoint under the node's name.
 */
final class Node {

    static final String HELP = """
        usage: polylink node [--name NAME] [--daemon] [--conf DIR]

        Runs one Polylink context in an Apache Felix framework, with the bundles in bundle/ and
        the configuration in conf/. The node publishes its system endpoint (echo, relay) in
        registry/ under its name, so other nodes can find it.

          --name NAME   the node's name (default: node-<pid>); letters, digits, '.', '_', '-'
          --daemon      no Gogo shell on the console; stop with SIGTERM (Ctrl-C)
          --conf DIR    the configuration folder instead of conf/: framework.properties and one
                        .cfg per PID, watched while the node runs (default: <home>/conf)
          --help        this text""";

    private static final String NAME_PATTERN = "[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}";

    private Node() {}

    static int run(String[] args) throws Exception {
        String name = "node-" + ProcessHandle.current().pid();
        boolean daemon = false;
        Path conf = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--name" -> {
                    if (i + 1 == args.length) {
                        return usage("--name needs a value");
                    }
                    name = args[++i];
                }
                case "--daemon" -> daemon = true;
                case "--conf" -> {
                    if (i + 1 == args.length) {
                        return usage("--conf needs a folder");
                    }
                    conf = Path.of(args[++i]).toAbsolutePath().normalize();
                }
                case "--help", "-h" -> {
                    System.out.println(HELP);
                    return 0;
                }
                default -> {
                    return usage("unknown option '" + args[i] + "'");
                }
            }
        }
        if (!name.matches(NAME_PATTERN)) {
            return usage("invalid node name '" + name + "': use letters, digits, '.', '_' and '-'");
        }
        Home home = Home.fromSystemProperty();
        if (conf == null) {
            conf = home.conf();
        } else if (!Files.isRegularFile(conf.resolve("framework.properties"))) {
            return usage("--conf " + conf + " has no framework.properties: give a copy of the distribution's conf/");
        }
        return start(home, conf, name, daemon);
    }

    private static int usage(String problem) {
        System.err.println("polylink node: " + problem + "\n" + HELP);
        return 2;
    }

    private static int start(Home home, Path conf, String name, boolean daemon) throws Exception {
        removeStaleWork(home);
        Path work = home.work().resolve(name + "-" + ProcessHandle.current().pid());
        Map<String, String> properties = home.frameworkProperties(conf);
        properties.put("felix.fileinstall.dir", conf.toString());
        // FileInstall's default is a fresh folder in java.io.tmpdir per start, left behind by a kill -9.
        properties.putIfAbsent("felix.fileinstall.tmpdir", work.resolve("fileinstall").toString());
        properties.put(Constants.FRAMEWORK_STORAGE, work.toString());
        properties.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        properties.put("polylink.name", name);
        properties.put("polylink.home", home.root().toString());
        if (daemon) {
            properties.put("gosh.args", "--nointeractive --noshutdown");
        }
        Framework framework = ServiceLoader.load(FrameworkFactory.class).iterator().next().newFramework(properties);
        Thread shutdown = new Thread(() -> stop(framework, work), "polylink-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdown);
        framework.init();
        List<Bundle> installed = install(framework, home.bundles());
        framework.start();
        Set<String> methods = Startup.start(framework.getBundleContext(), installed, conf);
        String context = Startup.awaitContext(framework.getBundleContext(), methods);
        if (context == null) {
            System.err.println("polylink node " + name + ": the context did not come up with methods " + methods
                + " within 30 s; see the log above");
        } else {
            System.out.println("polylink node " + name + " up: " + context);
            System.out.flush();
        }
        framework.waitForStop(0);
        return 0;
    }

    private static List<Bundle> install(Framework framework, Path dir) throws IOException, BundleException {
        List<Bundle> out = new ArrayList<>();
        try (Stream<Path> jars = Files.list(dir)) {
            for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                out.add(framework.getBundleContext().installBundle(jar.toUri().toString()));
            }
        }
        return out;
    }

    private static void stop(Framework framework, Path work) {
        try {
            framework.stop();
            framework.waitForStop(TimeUnit.SECONDS.toMillis(10));
        } catch (BundleException | InterruptedException e) {
            System.err.println("polylink: stopping the framework failed: " + e);
        }
        delete(work);
    }

    /** Work folders of nodes that were killed: their process is gone. */
    private static void removeStaleWork(Home home) throws IOException {
        if (!Files.isDirectory(home.work())) {
            return;
        }
        try (Stream<Path> dirs = Files.list(home.work())) {
            for (Path dir : dirs.toList()) {
                String n = dir.getFileName().toString();
                int dash = n.lastIndexOf('-');
                try {
                    long pid = Long.parseLong(n.substring(dash + 1));
                    if (ProcessHandle.of(pid).isEmpty()) {
                        delete(dir);
                    }
                } catch (NumberFormatException | StringIndexOutOfBoundsException notOurs) {
                    // leave folders we did not make
                }
            }
        }
    }

    static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("polylink: could not remove " + dir + ": " + e.getMessage());
        }
    }
}
