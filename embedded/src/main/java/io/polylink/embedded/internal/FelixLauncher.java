package io.polylink.embedded.internal;

import io.polylink.Context;
import io.polylink.Polylink;
import io.polylink.PolylinkException;
import io.polylink.PolylinkLauncher;
import io.polylink.PolylinkSettings;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.jar.Manifest;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;

/**
 * Starts a context in a Felix framework of its own (the host-application pattern): the system
 * bundle exports {@code io.polylink} and {@code io.polylink.spi} from the application's class
 * path, so the context the core registers is the application's {@link Context} type. Config
 * Admin starts first and gets the settings' configurations; then everything else starts, and
 * the launcher waits for the context.
 */
public final class FelixLauncher implements PolylinkLauncher {

    private static final String API_MANIFEST = "META-INF/polylink/api.MF";
    private static final String CONFIG_ADMIN = "org.apache.felix.configadmin";
    /** Conscrypt's manifest imports it; the JDK has it. */
    private static final String CONSCRYPT_NEEDS = "sun.security.x509";

    @Override
    public Polylink start(PolylinkSettings settings) {
        Storage storage = Storage.open(settings.storage(), settings.name());
        Framework framework = null;
        try {
            Catalog catalog = Catalog.extract(storage.repository());
            List<BundleJar> own = new ArrayList<>();
            for (Path jar : settings.bundles()) {
                own.add(BundleJar.read(jar));
            }
            List<BundleJar> plan = BootPlan.of(catalog.bundles(), own, settings);
            framework = framework(properties(settings, storage, catalog));
            framework.init();
            BundleContext system = framework.getBundleContext();
            List<Bundle> bundles = new ArrayList<>();
            for (BundleJar jar : plan) {
                // reference: the framework reads the jar where it is, with no copy in its cache
                bundles.add(system.installBundle("reference:" + jar.path().toUri()));
            }
            framework.start();
            startConfigured(system, bundles, settings.configurations());
            Context context = ContextAwait.await(system, settings.methods(), settings.transforms(),
                settings.startTimeout());
            return new EmbeddedPolylink(framework, context, storage, settings.keepStorage(), settings.startTimeout(),
                settings.name().orElse(context.id().toString()));
        } catch (IOException | BundleException | RuntimeException e) {
            PolylinkException failure = e instanceof PolylinkException p ? p
                : new PolylinkException("cannot start a Polylink context: " + e.getMessage(), e);
            String cleanup = cleanUp(framework, storage, settings);
            if (cleanup != null) {
                failure.addSuppressed(new PolylinkException("and cleaning up after it: " + cleanup));
            }
            throw failure;
        } catch (Error e) {
            cleanUp(framework, storage, settings);
            throw e;
        }
    }

    /** @return what could not be cleaned up, or null */
    private static String cleanUp(Framework framework, Storage storage, PolylinkSettings settings) {
        String stopped = framework == null ? null : EmbeddedPolylink.stop(framework, settings.startTimeout());
        String deleted = settings.keepStorage() ? null : EmbeddedPolylink.delete(storage);
        return stopped == null ? deleted : deleted == null ? stopped : stopped + "; " + deleted;
    }

    /** Config Admin first, given the configurations; then every other bundle, so none starts with defaults. */
    private static void startConfigured(BundleContext system, List<Bundle> bundles,
                                        Map<String, Map<String, Object>> configurations) {
        bundles.stream().filter(b -> CONFIG_ADMIN.equals(b.getSymbolicName())).forEach(FelixLauncher::start);
        ConfigAdmin.configure(system, configurations);
        bundles.stream().filter(b -> b.getHeaders().get(Constants.FRAGMENT_HOST) == null).forEach(FelixLauncher::start);
    }

    private static void start(Bundle b) {
        try {
            b.start();
        } catch (BundleException e) {
            throw new PolylinkException("bundle " + b.getSymbolicName() + " " + b.getVersion() + " cannot start: "
                + e.getMessage(), e);
        }
    }

    private static Framework framework(Map<String, String> properties) {
        for (FrameworkFactory factory : ServiceLoader.load(FrameworkFactory.class, FelixLauncher.class.getClassLoader())) {
            return factory.newFramework(properties);
        }
        throw new PolylinkException("no OSGi framework on the class path: add org.apache.felix:org.apache.felix.framework "
            + "(polylink-embedded depends on it)");
    }

    private static Map<String, String> properties(PolylinkSettings settings, Storage storage, Catalog catalog)
            throws IOException {
        Map<String, String> p = new HashMap<>();
        p.put(Constants.FRAMEWORK_STORAGE, storage.framework().toString());
        p.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        p.put(Constants.FRAMEWORK_SYSTEMPACKAGES_EXTRA, apiExports() + "," + CONSCRYPT_NEEDS);
        // On the calling thread: a resolver pool keeps its threads for 60 s after the framework
        // stopped, and a handful of bundles resolve no faster in parallel.
        p.put("felix.resolver.parallelism", "1");
        settings.name().ifPresent(name -> p.put("polylink.name", name));
        // where the core installs a method or transform it meets but lacks, unless configured otherwise
        p.put("polylink.repository", catalog.index().toUri().toString());
        p.put("felix.fileinstall.dir", storage.deploy().toString());
        p.put("felix.fileinstall.tmpdir", storage.fileInstall().toString());
        p.put("felix.fileinstall.poll", "500");
        p.put("felix.fileinstall.noInitialDelay", "true");
        p.put("felix.fileinstall.filter", "[^.].*");
        p.put("felix.fileinstall.log.level", "2");
        p.put("felix.fileinstall.enableConfigSave", "false");
        return p;
    }

    /** @return the API bundle's Export-Package header, with the package versions the carried bundles import */
    private static String apiExports() throws IOException {
        URL url = FelixLauncher.class.getClassLoader().getResource(API_MANIFEST);
        if (url == null) {
            throw new IOException(API_MANIFEST + " is missing from the polylink-embedded jar on the class path");
        }
        try (InputStream in = url.openStream()) {
            String exports = new Manifest(in).getMainAttributes().getValue(Constants.EXPORT_PACKAGE);
            if (exports == null) {
                throw new IOException(API_MANIFEST + " has no Export-Package header");
            }
            return exports;
        }
    }
}
