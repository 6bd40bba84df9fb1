package io.polylink.bench.internal.swap;

import io.polylink.spi.Transform;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceListener;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.SynchronousBundleListener;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.osgi.framework.wiring.BundleCapability;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.framework.wiring.FrameworkWiring;

/**
 * The {@code swap-node} child process of the swap command: one Polylink context in a real Apache
 * Felix framework, made of the bundle jars this jar carries ({@link #BUNDLES}), which updates its
 * own bundles when told to on its standard input: {@code update BSN} is Bundle.update() from the
 * bundle's location (its jar in DIR/bundles), then FrameworkWiring.refreshBundles, as an
 * administrator would. It answers one line, {@value #DONE}… with the steps' times or
 * {@value #FAILED}… with the reason, once the context has the bundle's method or transform again:
 * every wait is on framework events, bounded. When its standard input ends (the
 * command finished, or died) the node stops its framework and exits, so it never outlives it.
 *
 * <p>Its tcp method listens on a fixed port of 127.0.0.1 and its shm inbox is named after the
 * context, so an updated method comes back at the address its peer already holds.
 */
public final class SwapNode {

    static final String COMMAND = "swap-node";
    static final String UP = "swap-node up ";
    static final String DONE = "swap-node done ";
    static final String FAILED = "swap-node failed ";
    /** The framework: the child's class path, not a bundle. */
    static final String FRAMEWORK = "org.apache.felix.framework";
    /** The bundles, in install order; each is the resource {@code swap-node/<name>.jar} of this jar. */
    static final List<String> BUNDLES = List.of("org.apache.felix.configadmin", "org.osgi.util.function",
        "org.osgi.util.promise", "org.osgi.service.component", "org.apache.felix.scr", "lz4-java", "polylink-api",
        "polylink-core", "polylink-method-tcp", "polylink-method-shm", "polylink-method-compress");
    private static final String CONFIG_ADMIN = "org.apache.felix.configadmin";
    private static final Duration LIMIT = Duration.ofSeconds(30);

    private final BundleContext framework;
    private final Path bundles;

    private SwapNode(BundleContext framework, Path bundles) {
        this.framework = framework;
        this.bundles = bundles;
    }

    /**
     * {@code swap-node --dir DIR --name NAME}: DIR holds {@code bundles/} (the jars), and gets
     * {@code felix-cache/}; shm segments go to DIR/shm, published names to DIR/registry.
     *
     * @return the exit status
     */
    public static int run(String[] args) throws Exception {
        Path dir = null;
        String name = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--dir" -> dir = Path.of(args[i + 1]);
                case "--name" -> name = args[i + 1];
                default -> throw new IllegalArgumentException(COMMAND + ": unknown option " + args[i]);
            }
        }
        if (dir == null || name == null || args.length % 2 != 0) {
            throw new IllegalArgumentException(COMMAND + " needs --dir DIR --name NAME");
        }
        Map<String, String> properties = new HashMap<>();
        properties.put(Constants.FRAMEWORK_STORAGE, dir.resolve("felix-cache").toString());
        properties.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        properties.put("polylink.name", name);
        Framework felix = ServiceLoader.load(FrameworkFactory.class).iterator().next().newFramework(properties);
        felix.init();
        try {
            SwapNode node = new SwapNode(felix.getBundleContext(), dir.resolve("bundles"));
            String context = node.boot(dir);
            System.out.println(UP + context);
            System.out.flush();
            node.serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
        } finally {
            felix.stop();
            felix.waitForStop(TimeUnit.SECONDS.toMillis(10));
        }
        return 0;
    }

    /** Installs and starts everything, Config Admin first and configured before the rest start. */
    private String boot(Path dir) throws Exception {
        Map<String, Bundle> installed = new LinkedHashMap<>();
        for (String jar : BUNDLES) {
            installed.put(jar, framework.installBundle(location(jar)));
        }
        framework.getBundle().start();
        installed.get(CONFIG_ADMIN).start();
        configure("io.polylink.method.tcp", Map.of("bindAddress", "127.0.0.1", "port", Integer.toString(freePort())));
        configure("io.polylink.method.shm", Map.of("directory", dir.resolve("shm").toString()));
        configure("io.polylink.registry", Map.of("directory", dir.resolve("registry").toString()));
        for (Bundle b : installed.values()) {
            try {
                b.start();
            } catch (BundleException e) {
                throw new BundleException("bundle " + b.getSymbolicName() + " (" + b.getLocation() + ") did not start: "
                    + e.getMessage(), e);
            }
        }
        ServiceReference<?> context = awaitService("(&(objectClass=io.polylink.Context)(polylink.methods=tcp)"
            + "(polylink.methods=shm))", "context with methods tcp and shm");
        awaitService("(&(objectClass=io.polylink.spi.Transform)(polylink.transform=lz4))", "lz4 transform");
        return "context " + context.getProperty("polylink.context.id");
    }

    private String location(String jar) {
        return bundles.resolve(jar + ".jar").toUri().toString();
    }

    private void serve(BufferedReader in) throws IOException {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String command = line.strip();
            if (command.isEmpty()) {
                continue;
            }
            String answer;
            try {
                answer = DONE + command + " " + execute(command);
            } catch (Exception e) {
                answer = FAILED + command + ": " + e;
            }
            System.out.println(answer);
            System.out.flush();
        }
    }

    private String execute(String command) throws Exception {
        String[] words = command.split("\\s+");
        if (words.length != 2) {
            throw new IllegalArgumentException("expected 'update BUNDLE', not '" + command + "'");
        }
        Timeline t = new Timeline(words[1]);
        framework.addBundleListener(t);
        try {
            switch (words[0]) {
                case "update" -> {
                    Bundle b = bundle(words[1]);
                    String provided = provided(b);
                    b.update();
                    refresh();
                    t.mark("refreshed");
                    awaitService(provided, provided);
                    t.mark("back");
                }
                default -> throw new IllegalArgumentException("unknown command '" + words[0]
                    + "'; this node knows update");
            }
        } finally {
            framework.removeBundleListener(t);
        }
        return t.toString();
    }

    /**
     * When each step of a command happened, in ms since it began: the framework's synchronous
     * bundle events and the command's own marks, e.g. {@code in 12.3 ms (stopping 0.1, stopped
     * 4.2, updated 5.0, resolved 6.1, starting 6.2, started 7.9, refreshed 8.1, back 8.2)}.
     */
    private static final class Timeline implements SynchronousBundleListener {
        private final long start = System.nanoTime();
        private final String bundle;
        private final StringBuilder marks = new StringBuilder();

        Timeline(String bundle) {
            this.bundle = bundle;
        }

        @Override
        public void bundleChanged(BundleEvent event) {
            if (!bundle.equals(event.getBundle().getSymbolicName())) {
                return;
            }
            mark(switch (event.getType()) {
                case BundleEvent.INSTALLED -> "installed";
                case BundleEvent.RESOLVED -> "resolved";
                case BundleEvent.STARTING -> "starting";
                case BundleEvent.STARTED -> "started";
                case BundleEvent.STOPPING -> "stopping";
                case BundleEvent.STOPPED -> "stopped";
                case BundleEvent.UPDATED -> "updated";
                case BundleEvent.UNRESOLVED -> "unresolved";
                case BundleEvent.UNINSTALLED -> "uninstalled";
                default -> "event " + event.getType();
            });
        }

        synchronized void mark(String what) {
            marks.append(marks.isEmpty() ? "" : ", ")
                .append(String.format(Locale.ROOT, "%s %.1f", what, (System.nanoTime() - start) / 1e6));
        }

        @Override
        public synchronized String toString() {
            return String.format(Locale.ROOT, "in %.1f ms (%s)", (System.nanoTime() - start) / 1e6, marks);
        }
    }

    /** @return each bundle that is not active, with its state, for a failure's message */
    private String states() {
        StringBuilder out = new StringBuilder();
        for (Bundle b : framework.getBundles()) {
            if (b.getState() != Bundle.ACTIVE) {
                out.append(out.isEmpty() ? "" : ", ").append(b.getSymbolicName()).append(' ').append(switch (b.getState()) {
                    case Bundle.INSTALLED -> "installed (not resolved)";
                    case Bundle.RESOLVED -> "resolved (not started)";
                    case Bundle.STARTING -> "starting";
                    case Bundle.STOPPING -> "stopping";
                    default -> "uninstalled";
                });
            }
        }
        return out.isEmpty() ? "all active" : out.toString();
    }

    private Bundle bundle(String symbolicName) {
        for (Bundle b : framework.getBundles()) {
            if (symbolicName.equals(b.getSymbolicName())) {
                return b;
            }
        }
        throw new IllegalArgumentException("no bundle " + symbolicName + " is installed");
    }

    /**
     * @return the filter of the service that shows the bundle's polylink.method or
     *     polylink.transform capability is in use: the context listing the method, or the transform
     *     (which the core binds as the service registers)
     */
    private static String provided(Bundle b) {
        BundleRevision revision = b.adapt(BundleRevision.class);
        for (String namespace : List.of("polylink.method", "polylink.transform")) {
            for (BundleCapability c : revision.getDeclaredCapabilities(namespace)) {
                Object name = c.getAttributes().get(namespace);
                return namespace.equals("polylink.method")
                    ? "(&(objectClass=io.polylink.Context)(polylink.methods=" + name + "))"
                    : "(&(objectClass=io.polylink.spi.Transform)(polylink.transform=" + name + "))";
            }
        }
        throw new IllegalArgumentException(b.getSymbolicName() + " provides no polylink.method or polylink.transform");
    }

    /**
     * Waits, woken by service events and bounded by {@link #LIMIT}, for a service matching
     * {@code filter}.
     *
     * @return the first one
     * @throws IllegalStateException naming {@code what} and the bundles not active, if none comes in time
     */
    private ServiceReference<?> awaitService(String filter, String what) throws InterruptedException, InvalidSyntaxException {
        Object changed = new Object();
        ServiceListener listener = event -> {
            synchronized (changed) {
                changed.notifyAll();
            }
        };
        framework.addServiceListener(listener, filter);
        try {
            long deadline = System.nanoTime() + LIMIT.toNanos();
            synchronized (changed) {
                while (true) {
                    // All: this launcher sees none of the services' packages, so no class-space check applies.
                    ServiceReference<?>[] refs = framework.getAllServiceReferences(null, filter);
                    if (refs != null && refs.length > 0) {
                        return refs[0];
                    }
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw new IllegalStateException("no " + what + " within " + LIMIT.toSeconds() + " s; bundles: "
                            + states());
                    }
                    changed.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                }
            }
        } finally {
            framework.removeServiceListener(listener);
        }
    }

    /** Refreshes what the framework has pending removal, as an administrator does after an update. */
    private void refresh() throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        Throwable[] error = new Throwable[1];
        framework.getBundle(0).adapt(FrameworkWiring.class).refreshBundles(null, event -> {
            if (event.getType() == FrameworkEvent.ERROR) {
                error[0] = event.getThrowable();
            }
            done.countDown();
        });
        if (!done.await(LIMIT.toSeconds(), TimeUnit.SECONDS)) {
            throw new IllegalStateException("the framework did not finish refreshing within " + LIMIT.toSeconds() + " s");
        }
        if (error[0] != null) {
            throw new IllegalStateException("refreshing failed: " + error[0], error[0]);
        }
    }

    /**
     * Hands Config Admin one configuration. The launcher sees the framework's API only, not Config
     * Admin's, so it goes through reflection on the interface Config Admin's bundle exports.
     */
    private void configure(String pid, Map<String, String> values) throws ReflectiveOperationException, BundleException {
        ServiceReference<?> ref = framework.getServiceReference("org.osgi.service.cm.ConfigurationAdmin");
        if (ref == null) {
            throw new BundleException("Config Admin did not register its service when started");
        }
        Object admin = framework.getService(ref);
        try {
            Class<?> type = ref.getBundle().loadClass("org.osgi.service.cm.ConfigurationAdmin");
            Class<?> configurationType = ref.getBundle().loadClass("org.osgi.service.cm.Configuration");
            Object configuration = type.getMethod("getConfiguration", String.class, String.class).invoke(admin, pid, "?");
            Dictionary<String, Object> properties = new Hashtable<>(values);
            configurationType.getMethod("update", Dictionary.class).invoke(configuration, properties);
        } finally {
            framework.ungetService(ref);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }
}
