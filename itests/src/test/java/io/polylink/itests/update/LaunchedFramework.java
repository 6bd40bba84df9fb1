package io.polylink.itests.update;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;

/**
 * A real Felix framework in this JVM, running bundle jars of the unpacked distribution as a node
 * does: SCR, Config Admin, the api and core bundles, and the methods and transforms asked for.
 * Its Config Admin is given the configurations before any Polylink bundle starts, so no component
 * ever runs with defaults (no shm inbox in /dev/shm/polylink-user, no tcp on 0.0.0.0).
 *
 * <p>The test shares no classes with it beyond the OSGi framework API: its services are reached
 * by their properties, its context by the naming registry. Stopped, with all its threads, by
 * {@link #close}.
 */
final class LaunchedFramework implements AutoCloseable {

    /** File name prefixes in the distribution's bundle/ folder, in start order. */
    private static final List<String> FOUNDATION = List.of("org.osgi.util.function-", "org.osgi.util.promise-",
        "org.osgi.service.component-", "org.apache.felix.scr-", "polylink-api-", "polylink-core-");
    private static final String CONFIG_ADMIN = "org.apache.felix.configadmin-";

    private final Framework framework;

    private LaunchedFramework(Framework framework) {
        this.framework = framework;
    }

    /**
     * @param bundles the distribution's bundle/ folder
     * @param storage the framework's cache, cleaned first
     * @param properties framework properties, e.g. {@code polylink.name}
     * @param configurations per PID, the properties Config Admin holds before the bundles start
     * @param extra file name prefixes of further bundles to install and start, in order
     */
    static LaunchedFramework start(Path bundles, Path storage, Map<String, String> properties,
                                   Map<String, Map<String, Object>> configurations, List<String> extra) throws Exception {
        FrameworkFactory factory = ServiceLoader.load(FrameworkFactory.class).findFirst()
            .orElseThrow(() -> new AssertionError("no FrameworkFactory on the test class path (Felix)"));
        Map<String, String> all = new HashMap<>(properties);
        all.put(Constants.FRAMEWORK_STORAGE, storage.toString());
        all.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        Framework framework = factory.newFramework(all);
        framework.init();
        LaunchedFramework launched = new LaunchedFramework(framework);
        try {
            BundleContext context = framework.getBundleContext();
            Bundle admin = context.installBundle(jar(bundles, CONFIG_ADMIN).toUri().toString());
            List<Bundle> rest = new ArrayList<>();
            for (String prefix : Stream.concat(FOUNDATION.stream(), extra.stream()).toList()) {
                rest.add(context.installBundle(jar(bundles, prefix).toUri().toString()));
            }
            framework.start();
            admin.start();
            configurations.forEach(launched::configure);
            for (Bundle b : rest) {
                b.start();
            }
            return launched;
        } catch (Exception | AssertionError e) {
            launched.close();
            throw e;
        }
    }

    private static Path jar(Path bundles, String prefix) throws Exception {
        try (Stream<Path> files = Files.list(bundles)) {
            List<Path> found = files.filter(p -> p.getFileName().toString().startsWith(prefix)
                && p.getFileName().toString().endsWith(".jar")).toList();
            if (found.size() != 1) {
                throw new AssertionError("expected one " + prefix + "*.jar in " + bundles + ", found " + found);
            }
            return found.get(0);
        }
    }

    /**
     * Creates or replaces a configuration through the framework's own Config Admin. Its classes are
     * not the test's, so the calls go through the interfaces as that bundle loaded them.
     */
    private void configure(String pid, Map<String, Object> properties) {
        BundleContext context = framework.getBundleContext();
        ServiceReference<?> ref = service("org.osgi.service.cm.ConfigurationAdmin");
        if (ref == null) {
            throw new AssertionError("Config Admin started without registering its service");
        }
        Object admin = context.getService(ref);
        try {
            Class<?> adminType = ref.getBundle().loadClass("org.osgi.service.cm.ConfigurationAdmin");
            Class<?> configurationType = ref.getBundle().loadClass("org.osgi.service.cm.Configuration");
            Object configuration = adminType.getMethod("getConfiguration", String.class, String.class)
                .invoke(admin, pid, "?");
            Dictionary<String, Object> values = new Hashtable<>(properties);
            configurationType.getMethod("update", Dictionary.class).invoke(configuration, values);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot configure " + pid + " through the framework's Config Admin", e);
        } finally {
            context.ungetService(ref);
        }
    }

    /**
     * @return a service of that interface, or {@code null}. By all references: the system bundle
     *     sees the test's class path, where the interface may be another class than the
     *     framework's, and would otherwise be shown none.
     */
    ServiceReference<?> service(String objectClass) {
        try {
            ServiceReference<?>[] refs = framework.getBundleContext().getAllServiceReferences(objectClass, null);
            return refs == null ? null : refs[0];
        } catch (InvalidSyntaxException e) {
            throw new AssertionError(e);
        }
    }

    BundleContext bundleContext() {
        return framework.getBundleContext();
    }

    Bundle bundle(String symbolicName) {
        for (Bundle b : framework.getBundleContext().getBundles()) {
            if (symbolicName.equals(b.getSymbolicName())) {
                return b;
            }
        }
        throw new AssertionError("no bundle " + symbolicName + " in the launched framework");
    }

    Framework framework() {
        return framework;
    }

    @Override
    public void close() throws Exception {
        framework.stop();
        if (framework.waitForStop(10_000).getType() == FrameworkEvent.WAIT_TIMEDOUT) {
            throw new AssertionError("the launched framework did not stop within 10 s");
        }
    }
}
