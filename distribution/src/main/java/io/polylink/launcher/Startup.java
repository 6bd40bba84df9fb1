package io.polylink.launcher;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;

/**
 * Starts a node's bundles in an order that makes its start deterministic: Config Admin and
 * FileInstall first, and everything else only once every conf/*.cfg has reached Config Admin, so
 * methods start once, with their configured address and directory, not first with defaults.
 * The launcher sees no OSGi service API but the framework's, so it speaks to Config Admin through
 * reflection on the interface its bundle exports.
 */
final class Startup {

    private static final Set<String> FIRST = Set.of("org.apache.felix.configadmin", "org.apache.felix.fileinstall");
    private static final Pattern METHOD_CAPABILITY = Pattern.compile("polylink\\.method\\s*;\\s*polylink\\.method\\s*=\\s*\"?([a-z0-9-]+)");
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private Startup() {}

    /** @return the methods the started bundles declare, which the context should come up with */
    static Set<String> start(BundleContext framework, List<Bundle> bundles, Path conf)
            throws BundleException, IOException, InterruptedException {
        List<Bundle> rest = new ArrayList<>();
        for (Bundle b : bundles) {
            if (FIRST.contains(b.getSymbolicName())) {
                b.start();
            } else {
                rest.add(b);
            }
        }
        awaitConfiguration(framework, conf);
        Set<String> methods = new HashSet<>();
        for (Bundle b : rest) {
            if (b.getHeaders().get(Constants.FRAGMENT_HOST) == null) {
                b.start();
                String capabilities = b.getHeaders().get(Constants.PROVIDE_CAPABILITY);
                if (capabilities != null) {
                    Matcher m = METHOD_CAPABILITY.matcher(capabilities);
                    while (m.find()) {
                        methods.add(m.group(1));
                    }
                }
            }
        }
        return methods;
    }

    private static void awaitConfiguration(BundleContext framework, Path conf) throws IOException, InterruptedException {
        int expected;
        try (Stream<Path> files = Files.list(conf)) {
            expected = (int) files.filter(p -> p.toString().endsWith(".cfg")).count();
        }
        long deadline = System.nanoTime() + WAIT_NANOS;
        int applied = 0;
        while (System.nanoTime() - deadline < 0) {
            applied = fileInstallConfigurations(framework);
            if (applied >= expected) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(10); // FileInstall applies conf/ on its own thread
        }
        System.err.println("polylink: only " + applied + " of " + expected + " files of " + conf
            + " reached Config Admin within 30 s; starting anyway, with defaults where they are missing");
    }

    private static int fileInstallConfigurations(BundleContext framework) {
        ServiceReference<?> ref = framework.getServiceReference("org.osgi.service.cm.ConfigurationAdmin");
        if (ref == null) {
            return 0;
        }
        Object admin = framework.getService(ref);
        try {
            Class<?> type = ref.getBundle().loadClass("org.osgi.service.cm.ConfigurationAdmin");
            Method list = type.getMethod("listConfigurations", String.class);
            Object[] found = (Object[]) list.invoke(admin, "(felix.fileinstall.filename=*)");
            return found == null ? 0 : found.length;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot ask Config Admin for its configurations: " + e, e);
        } finally {
            framework.ungetService(ref);
        }
    }

    /** Waits until the context's service lists every method the bundles declare. */
    static String awaitContext(BundleContext framework, Set<String> methods) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (System.nanoTime() - deadline < 0) {
            ServiceReference<?> ref = framework.getServiceReference("io.polylink.Context");
            if (ref != null && ref.getProperty("polylink.methods") instanceof String[] installed
                && Arrays.asList(installed).containsAll(methods)) {
                return "context " + ref.getProperty("polylink.context.id") + ", methods " + String.join(", ", installed);
            }
            TimeUnit.MILLISECONDS.sleep(10); // the service registry has no blocking wait
        }
        return null;
    }
}
