package io.polylink.core.internal.provision;

import io.polylink.core.internal.provision.RepositoryIndex.Capability;
import io.polylink.core.internal.provision.RepositoryIndex.Requirement;
import io.polylink.core.internal.provision.RepositoryIndex.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.Filter;
import org.osgi.framework.FrameworkUtil;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.wiring.BundleCapability;
import org.osgi.framework.wiring.BundleRevision;

/**
 * The bundles to install for one resource of a repository: the resource itself and, first, the
 * repository's providers of the packages it imports that no installed bundle exports (a method's
 * library bundle, such as lz4-java). Not a full resolver: the framework resolves when the bundles
 * start, and its error is reported if anything else is missing.
 */
final class InstallPlan {

    private static final String PACKAGE = "osgi.wiring.package";
    /** Deep enough for a method and its libraries; deeper means the index is not what we think. */
    private static final int MAX_BUNDLES = 32;

    private final List<Resource> resources;

    private InstallPlan(List<Resource> resources) {
        this.resources = List.copyOf(resources);
    }

    /**
     * @throws ProvisionException naming the requirement no installed bundle and no resource meets
     */
    static InstallPlan of(Resource target, RepositoryIndex index, BundleContext framework) {
        List<Resource> planned = new ArrayList<>();
        add(target, index, framework, planned);
        return new InstallPlan(planned);
    }

    private static void add(Resource resource, RepositoryIndex index, BundleContext framework,
                            List<Resource> planned) {
        if (planned.contains(resource)) {
            return;
        }
        if (planned.size() >= MAX_BUNDLES) {
            throw new ProvisionException("installing " + resource + " would take more than " + MAX_BUNDLES
                + " bundles from " + index + "; install its libraries by hand");
        }
        for (Requirement requirement : resource.requirements()) {
            if (!requirement.namespace().equals(PACKAGE) || requirement.optional()) {
                continue;
            }
            Filter filter = filter(requirement, resource);
            if (installedProvides(framework, filter) || planned.stream().anyMatch(r -> offers(r, filter))) {
                continue;
            }
            Resource provider = index.resources().stream().filter(r -> offers(r, filter)).findFirst()
                .orElseThrow(() -> new ProvisionException(resource + " imports " + requirement.filter()
                    + ", which no installed bundle exports and no bundle in " + index + " provides"));
            add(provider, index, framework, planned);
        }
        planned.add(resource);
    }

    /**
     * Installs every bundle, then starts them, libraries first. If any step fails, the bundles
     * installed so far are uninstalled again.
     *
     * @return the bundles installed, libraries first
     * @throws ProvisionException naming the bundle and the framework's reason
     */
    List<Bundle> installAndStart(BundleContext framework) {
        List<Bundle> installed = new ArrayList<>();
        Resource current = null;
        try {
            for (Resource r : resources) {
                current = r;
                installed.add(framework.installBundle(r.content().toString()));
            }
            for (int i = 0; i < installed.size(); i++) {
                current = resources.get(i);
                if (installed.get(i).getHeaders("").get(Constants.FRAGMENT_HOST) == null) {
                    installed.get(i).start();
                }
            }
            return installed;
        } catch (BundleException | RuntimeException e) {
            for (Bundle b : installed) {
                try {
                    b.uninstall();
                } catch (BundleException | IllegalStateException ignored) {
                    // already gone
                }
            }
            throw new ProvisionException("bundle " + current + " from " + current.content() + " failed: "
                + e.getMessage(), e);
        }
    }

    /** @return the resources in install order */
    List<Resource> resources() {
        return resources;
    }

    @Override
    public String toString() {
        return resources.stream().map(Resource::toString).collect(Collectors.joining(", "));
    }

    private static boolean installedProvides(BundleContext framework, Filter filter) {
        for (Bundle b : framework.getBundles()) {
            BundleRevision revision = b.adapt(BundleRevision.class);
            if (revision != null) {
                for (BundleCapability c : revision.getDeclaredCapabilities(PACKAGE)) {
                    if (filter.matches(c.getAttributes())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean offers(Resource resource, Filter filter) {
        for (Capability c : resource.capabilities()) {
            if (c.namespace().equals(PACKAGE) && filter.matches(c.attributes())) {
                return true;
            }
        }
        return false;
    }

    private static Filter filter(Requirement requirement, Resource of) {
        try {
            return FrameworkUtil.createFilter(requirement.filter() == null ? "(" + PACKAGE + "=*)"
                : requirement.filter());
        } catch (InvalidSyntaxException e) {
            throw new ProvisionException("the repository's requirement " + requirement.filter() + " of " + of
                + " is not a valid filter: " + e.getMessage(), e);
        }
    }
}
