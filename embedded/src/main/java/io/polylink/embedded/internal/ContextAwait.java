package io.polylink.embedded.internal;

import io.polylink.Context;
import io.polylink.PolylinkException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;

/** Waits until the framework's context runs with every method and transform asked for. */
final class ContextAwait {

    /**
     * How often the context is looked at. A transform joins the context inside its service's
     * registration event, with no event of its own after it, so there is nothing to wait on.
     */
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private ContextAwait() {}

    /**
     * @return the context, once its methods and transforms include those asked for
     * @throws PolylinkException naming what is missing, and the bundles that are not active, if
     *     that takes longer than {@code timeout}
     */
    static Context await(BundleContext system, List<String> methods, List<String> transforms, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            ServiceReference<Context> ref = system.getServiceReference(Context.class);
            Context context = ref == null ? null : system.getService(ref);
            if (context != null && context.methods().containsAll(methods)
                && context.transforms().containsAll(transforms)) {
                return context;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new PolylinkException("the context did not come up within " + timeout.toMillis() + " ms: "
                    + missing(context, methods, transforms) + inactive(system) + "; see the log for why");
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    private static String missing(Context context, List<String> methods, List<String> transforms) {
        if (context == null) {
            return "no context service is registered";
        }
        List<String> absent = new ArrayList<>();
        methods.stream().filter(m -> !context.methods().contains(m)).forEach(m -> absent.add("method " + m));
        transforms.stream().filter(t -> !context.transforms().contains(t)).forEach(t -> absent.add("transform " + t));
        return "it lacks " + String.join(", ", absent);
    }

    private static String inactive(BundleContext system) {
        List<String> out = new ArrayList<>();
        for (Bundle b : system.getBundles()) {
            if (b.getState() != Bundle.ACTIVE && b.getHeaders().get(Constants.FRAGMENT_HOST) == null) {
                out.add(b.getSymbolicName() + " (" + state(b) + ")");
            }
        }
        return out.isEmpty() ? "" : "; bundles not active: " + String.join(", ", out);
    }

    private static String state(Bundle b) {
        return switch (b.getState()) {
            case Bundle.INSTALLED -> "installed, not resolved";
            case Bundle.RESOLVED -> "resolved, not started";
            case Bundle.STARTING -> "starting";
            case Bundle.STOPPING -> "stopping";
            default -> "uninstalled";
        };
    }
}
