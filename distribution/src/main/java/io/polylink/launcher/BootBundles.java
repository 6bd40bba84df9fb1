package io.polylink.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.startlevel.BundleStartLevel;

/**
 * The bundles of a node's framework before it starts: bundle/'s, installed, and on a kept storage
 * also those installed while the node ran before. There a jar of bundle/ changed since is
 * updated, a bundle whose jar left bundle/ is uninstalled, and the bundles that were started are
 * held back, so that {@link Startup} starts bundle/'s once conf/ has reached Config Admin and
 * {@link #resume} the others after them, as in a fresh framework.
 */
final class BootBundles {

    private final List<Bundle> boot;
    private final List<Bundle> resumed;

    private BootBundles(List<Bundle> boot, List<Bundle> resumed) {
        this.boot = boot;
        this.resumed = resumed;
    }

    /** @param framework a framework initialised but not started */
    static BootBundles install(BundleContext framework, Path dir) throws IOException, BundleException {
        List<Path> jars;
        try (Stream<Path> files = Files.list(dir)) {
            jars = files.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
        String bootPrefix = dir.toUri().toString();
        Set<String> bootLocations = jars.stream().map(p -> p.toUri().toString()).collect(Collectors.toSet());
        List<Bundle> resumed = new ArrayList<>();
        for (Bundle b : framework.getBundles()) {
            if (b.getBundleId() == 0) {
                continue;
            }
            boolean ofBoot = bootLocations.contains(b.getLocation());
            if (!ofBoot && b.getLocation().startsWith(bootPrefix)) {
                b.uninstall();
            } else if (b.adapt(BundleStartLevel.class).isPersistentlyStarted()) {
                b.stop();
                if (!ofBoot) {
                    resumed.add(b);
                }
            }
        }
        List<Bundle> boot = new ArrayList<>();
        for (Path jar : jars) {
            Bundle b = framework.installBundle(jar.toUri().toString());
            if (b.getLastModified() < Files.getLastModifiedTime(jar).toMillis()) {
                b.update();
            }
            boot.add(b);
        }
        return new BootBundles(List.copyOf(boot), List.copyOf(resumed));
    }

    /** @return bundle/'s bundles, in the order of their file names */
    List<Bundle> boot() {
        return boot;
    }

    /** Starts the bundles of a kept storage that were started when the node last stopped. */
    void resume() throws BundleException {
        for (Bundle b : resumed) {
            if (b.getState() != Bundle.UNINSTALLED) {
                b.start();
            }
        }
    }
}
