package io.polylink.policy.plogp.internal;

import io.polylink.spi.Configuration;
import io.polylink.spi.InvalidSettingException;
import io.polylink.spi.SelectionPolicy;
import java.nio.file.Path;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Map;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Registers the {@link CostModelPolicy} while the configuration {@value #PID} says
 * {@code enabled=true}, ranked above the core's first-applicable; otherwise nothing. A changed
 * configuration replaces the policy, and every link selects again.
 */
@Component(configurationPid = CostModelComponent.PID, configurationPolicy = ConfigurationPolicy.REQUIRE,
    immediate = true, service = {})
@Designate(ocd = CostModelConfig.class)
public final class CostModelComponent {

    static final String PID = "io.polylink.policy.plogp";
    /** Above first-applicable, which the core uses without any policy service. */
    private static final int RANKING = 10;

    private final BundleContext bundle;
    private ServiceRegistration<SelectionPolicy> registration;

    /** @throws InvalidSettingException naming a key whose value cannot be used */
    @Activate
    public CostModelComponent(BundleContext bundle, Map<String, Object> properties) {
        this.bundle = bundle;
        register(policy(properties));
    }

    /** @throws InvalidSettingException naming a key whose value cannot be used; the policy in force stays */
    @Modified
    synchronized void modified(Map<String, Object> properties) {
        CostModelPolicy next = policy(properties);
        stop();
        register(next);
    }

    @Deactivate
    synchronized void stop() {
        if (registration != null) {
            registration.unregister();
            registration = null;
        }
    }

    private void register(CostModelPolicy policy) {
        if (policy != null) {
            Dictionary<String, Object> service = new Hashtable<>();
            service.put(Constants.SERVICE_RANKING, RANKING);
            registration = bundle.registerService(SelectionPolicy.class, policy, service);
        }
    }

    /** @return the configured policy, or {@code null} if it is not enabled */
    private static CostModelPolicy policy(Map<String, Object> properties) {
        CostModelConfig config = Configuration.read(PID, CostModelConfig.class, properties);
        if (!(config.margin() >= 0 && config.margin() <= 1)) {
            throw new InvalidSettingException(PID, "margin", config.margin(), "a fraction from 0 to 1");
        }
        return config.enabled() ? new CostModelPolicy(Path.of(config.models()), config.margin()) : null;
    }
}
