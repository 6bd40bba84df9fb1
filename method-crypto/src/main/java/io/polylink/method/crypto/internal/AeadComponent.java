package io.polylink.method.crypto.internal;

import io.polylink.spi.Transform;
import java.lang.System.Logger.Level;
import java.security.Provider;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Map;
import java.util.function.Supplier;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Registers the {@code aead} transform once it can encrypt: with a pre-shared key configured and a
 * cipher provider that passed its self-test. Otherwise nothing is registered, so no stack with
 * aead can be chosen, and one log line says why.
 *
 * <p>The transform is registered by hand after those checks rather than as the component's own
 * service, so no consumer ever sees an aead service that cannot encrypt. A new configuration
 * replaces the component, and with it the transform.
 */
@Component(configurationPid = AeadSettings.PID, configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = AeadConfig.class)
public final class AeadComponent {

    private static final System.Logger LOG = System.getLogger("io.polylink.method.crypto");

    /** {@code null} while the transform is off. */
    private final ServiceRegistration<Transform> registration;
    private final String off;

    @Activate
    public AeadComponent(BundleContext bundle, Map<String, Object> properties) {
        this(bundle, properties, CipherProvider::loadConscrypt);
    }

    /** @param conscrypt yields Conscrypt's provider or throws why it cannot; replaceable for tests */
    AeadComponent(BundleContext bundle, Map<String, Object> properties, Supplier<Provider> conscrypt) {
        AeadTransform transform;
        try {
            transform = AeadTransform.configured(properties, conscrypt);
        } catch (IllegalArgumentException | IllegalStateException e) {
            // Off is a state, not a failure of the component: one line, no stack trace. No key is
            // how a node starts until someone configures one; anything else needs a look.
            off = "aead transform off: " + e.getMessage();
            LOG.log(AeadSettings.hasKey(properties) ? Level.WARNING : Level.INFO, off);
            registration = null;
            return;
        }
        off = null;
        Dictionary<String, Object> service = new Hashtable<>();
        service.put(Transform.NAME_PROPERTY, AeadTransform.NAME);
        registration = bundle.registerService(Transform.class, transform, service);
        LOG.log(Level.INFO, "started " + transform);
    }

    /** @return why the transform is off, or {@code null} if it is registered */
    String off() {
        return off;
    }

    @Deactivate
    void deactivate() {
        if (registration == null) {
            return;
        }
        try {
            registration.unregister();
        } catch (IllegalStateException alreadyGone) {
            // the framework is stopping and took the registration with it
        }
    }
}
