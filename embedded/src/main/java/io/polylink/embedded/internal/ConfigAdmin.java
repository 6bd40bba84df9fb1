package io.polylink.embedded.internal;

import io.polylink.PolylinkException;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Map;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;

/**
 * Hands configurations to the framework's Config Admin before the parts they configure start, so
 * no part ever runs with defaults first. Config Admin's interfaces are not on the application's
 * class path (the application sees only {@code io.polylink}), so the calls go through them as its
 * bundle loaded them.
 */
final class ConfigAdmin {

    private static final String ADMIN = "org.osgi.service.cm.ConfigurationAdmin";
    private static final String CONFIGURATION = "org.osgi.service.cm.Configuration";

    private ConfigAdmin() {}

    /**
     * @param system the system bundle's context, with Config Admin started
     * @param configurations per PID, the properties to hold
     * @throws PolylinkException naming the PID if Config Admin is missing or refuses a configuration
     */
    static void configure(BundleContext system, Map<String, Map<String, Object>> configurations) {
        if (configurations.isEmpty()) {
            return;
        }
        ServiceReference<?> ref = adminReference(system);
        Object admin = system.getService(ref);
        try {
            Class<?> adminType = ref.getBundle().loadClass(ADMIN);
            Class<?> configurationType = ref.getBundle().loadClass(CONFIGURATION);
            for (Map.Entry<String, Map<String, Object>> e : configurations.entrySet()) {
                // "?": bound to whichever bundle registers the PID, as a .cfg file through FileInstall is
                Object configuration = adminType.getMethod("getConfiguration", String.class, String.class)
                    .invoke(admin, e.getKey(), "?");
                Dictionary<String, Object> values = new Hashtable<>(e.getValue());
                try {
                    configurationType.getMethod("update", Dictionary.class).invoke(configuration, values);
                } catch (ReflectiveOperationException refused) {
                    throw new PolylinkException("Config Admin refused the configuration of " + e.getKey() + ": "
                        + refused.getCause(), refused);
                }
            }
        } catch (ReflectiveOperationException e) {
            throw new PolylinkException("cannot reach the framework's Config Admin: " + e, e);
        } finally {
            system.ungetService(ref);
        }
    }

    /**
     * By all references: the system bundle cannot load Config Admin's interface, and would be shown
     * none otherwise.
     */
    private static ServiceReference<?> adminReference(BundleContext system) {
        try {
            ServiceReference<?>[] refs = system.getAllServiceReferences(ADMIN, null);
            if (refs == null) {
                throw new PolylinkException("Config Admin started without registering its service");
            }
            return refs[0];
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException("no filter was given", e);
        }
    }
}
