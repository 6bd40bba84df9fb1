package io.polylink.embedded.internal;

import io.polylink.PolylinkException;
import io.polylink.PolylinkSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Which bundles a context starts with: every carried bundle that is neither a method nor a
 * transform (the runtime and its libraries), the methods and transforms the settings name, and
 * the application's own bundles. The carried methods and transforms not named stay in the
 * repository, for deploy/ or an install on demand.
 */
final class BootPlan {

    private BootPlan() {}

    /**
     * @param carried the bundles this jar carries
     * @param own the application's bundles from the settings, which may declare further methods
     * @return the bundles to install and start, carried ones first
     * @throws PolylinkException naming what exists if the settings name a method or transform
     *     that no bundle declares
     */
    static List<BundleJar> of(List<BundleJar> carried, List<BundleJar> own, PolylinkSettings settings) {
        List<BundleJar> all = new ArrayList<>(own);
        all.addAll(carried);
        List<BundleJar> plan = new ArrayList<>(carried.stream().filter(BundleJar::isFoundation).toList());
        for (String method : settings.methods()) {
            add(plan, provider(all, method, "method", BundleJar::methods));
        }
        for (String transform : settings.transforms()) {
            add(plan, provider(all, transform, "transform", BundleJar::transforms));
        }
        own.forEach(b -> add(plan, b));
        return List.copyOf(plan);
    }

    private static void add(List<BundleJar> plan, BundleJar b) {
        if (!plan.contains(b)) {
            plan.add(b);
        }
    }

    private static BundleJar provider(List<BundleJar> all, String name, String kind,
                                      Function<BundleJar, List<String>> declared) {
        for (BundleJar b : all) {
            if (declared.apply(b).contains(name)) {
                return b;
            }
        }
        TreeSet<String> known = new TreeSet<>();
        all.forEach(b -> known.addAll(declared.apply(b)));
        throw new PolylinkException("no bundle provides the " + kind + " '" + name + "'; there are "
            + (known.isEmpty() ? "none" : String.join(", ", known)) + ". A third party's " + kind
            + " comes as a bundle: PolylinkSettings.builder().bundle(jar)");
    }
}
