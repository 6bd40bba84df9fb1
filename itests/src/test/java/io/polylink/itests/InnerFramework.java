package io.polylink.itests;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;

/**
 * A second, real Felix framework inside the test framework's JVM: a second context, from the same
 * built api, core and SCR bundles the test framework runs. Its context publishes its system
 * endpoint under a name in the (shared, default) directory registry, so the test's context can
 * look it up. Stopped, with all its threads, by {@link #close}.
 */
final class InnerFramework implements AutoCloseable {

    private static final List<String> BUNDLES = List.of("io.polylink.api", "io.polylink.core",
        "org.osgi.util.function", "org.osgi.util.promise", "org.osgi.service.component", "org.apache.felix.scr");

    private final Framework framework;

    private InnerFramework(Framework framework) {
        this.framework = framework;
    }

    /**
     * @param outer the test framework, whose bundle files are installed again here
     * @param name what the inner context publishes its system endpoint as
     * @param extra further bundle files to install and start
     */
    static InnerFramework start(BundleContext outer, Path storage, String name, Path... extra) throws Exception {
        FrameworkFactory factory = ServiceLoader.load(FrameworkFactory.class, FrameworkFactory.class.getClassLoader())
            .findFirst().orElseThrow(() -> new AssertionError("no FrameworkFactory next to the test framework's"));
        Map<String, String> properties = new HashMap<>();
        properties.put(Constants.FRAMEWORK_STORAGE, storage.toString());
        properties.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        properties.put("polylink.name", name);
        Framework framework = factory.newFramework(properties);
        framework.init();
        try {
            BundleContext inner = framework.getBundleContext();
            List<Bundle> installed = new ArrayList<>();
            for (String bsn : BUNDLES) {
                Bundle b = Arrays.stream(outer.getBundles()).filter(x -> bsn.equals(x.getSymbolicName())).findFirst()
                    .orElseThrow(() -> new AssertionError("the test framework has no " + bsn + " to copy"));
                installed.add(inner.installBundle(fileLocation(b.getLocation())));
            }
            for (Path p : extra) {
                installed.add(inner.installBundle(p.toUri().toString()));
            }
            framework.start();
            for (Bundle b : installed) {
                b.start();
            }
            return new InnerFramework(framework);
        } catch (Exception | AssertionError e) {
            framework.stop();
            framework.waitForStop(10_000);
            throw e;
        }
    }

    BundleContext bundleContext() {
        return framework.getBundleContext();
    }

    /** The launcher may install by plain path or by reference: URL; the inner framework wants a URL. */
    private static String fileLocation(String location) {
        String l = location.startsWith("reference:") ? location.substring("reference:".length()) : location;
        return l.matches("[a-z]+:.*") ? l : Path.of(l).toUri().toString();
    }

    @Override
    public void close() throws Exception {
        framework.stop();
        if (framework.waitForStop(10_000).getType() == org.osgi.framework.FrameworkEvent.WAIT_TIMEDOUT) {
            throw new AssertionError("the inner framework did not stop within 10 s");
        }
    }
}
