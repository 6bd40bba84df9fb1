package io.polylink.launcher;

import java.io.IOException;
import java.util.Map;
import org.osgi.framework.ServiceEvent;
import org.osgi.framework.ServiceListener;
import org.osgi.framework.ServiceReference;

/**
 * Keeps the context's id and methods in the node's facts file ({@link NameClaim}) as the
 * context's service comes, changes (a method came or went) and goes.
 */
final class ContextFacts implements ServiceListener {

    /** The filter of the services this listener is for. */
    static final String FILTER = "(objectClass=io.polylink.Context)";

    private final NameClaim claim;

    ContextFacts(NameClaim claim) {
        this.claim = claim;
    }

    @Override
    public void serviceChanged(ServiceEvent event) {
        ServiceReference<?> context = event.getServiceReference();
        try {
            if (event.getType() == ServiceEvent.UNREGISTERING) {
                claim.remove(NameClaim.CONTEXT, NameClaim.METHODS);
            } else {
                claim.put(Map.of(NameClaim.CONTEXT, String.valueOf(context.getProperty("polylink.context.id")),
                    NameClaim.METHODS, methods(context.getProperty("polylink.methods"))));
            }
        } catch (IOException e) {
            System.getLogger("io.polylink.launcher").log(System.Logger.Level.WARNING,
                "cannot write " + claim.name() + "'s facts into run/: " + e.getMessage());
        }
    }

    private static String methods(Object property) {
        return property instanceof String[] names ? String.join(", ", names) : "";
    }
}
