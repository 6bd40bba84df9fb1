package io.polylink.core.internal;

import io.polylink.Context;
import io.polylink.core.internal.channel.PeerChannels;
import io.polylink.core.internal.config.CoreConfig;
import io.polylink.core.internal.config.CoreSettings;
import io.polylink.core.internal.flow.Flows;
import io.polylink.core.internal.registry.Installed;
import io.polylink.core.internal.select.StackSelector;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Configuration;
import io.polylink.spi.NameRegistry;
import io.polylink.spi.SelectionPolicy;
import io.polylink.spi.Transform;
import java.lang.System.Logger.Level;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Wires a {@link ContextRuntime} into OSGi: tracks method, transform, policy and naming registry
 * services as they come and go, and registers the runtime as the framework's {@link Context}, then
 * the parts the bundle's own components use as services of their own: the registry of installed
 * methods ({@link Installed}), selection, the flows and the channels.
 *
 * <p>These are registered by hand after activation rather than as the component's own service,
 * so each service object is the part itself and never a half-activated component.
 */
@Component(configurationPid = CoreSettings.PID, configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = CoreConfig.class)
public final class ContextComponent {

    private static final System.Logger LOG = System.getLogger("io.polylink.core");

    private final ContextRuntime runtime;
    private final ServiceRegistration<Context> registration;
    private final List<ServiceRegistration<?>> parts;
    private final String name;

    /** @param properties the {@code io.polylink.core} configuration, keyed as {@link CoreConfig} */
    @Activate
    public ContextComponent(BundleContext bundle, Map<String, Object> properties) {
        CoreConfig config = Configuration.read(CoreSettings.PID, CoreConfig.class, properties);
        runtime = new ContextRuntime(CoreSettings.of(config));
        String configured = config.name().isEmpty() ? bundle.getProperty("polylink.name") : config.name();
        name = configured == null || configured.isBlank() ? null : configured.strip();
        registration = bundle.registerService(Context.class, runtime, properties());
        parts = List.of(bundle.registerService(Installed.class, runtime.installed, null),
            bundle.registerService(StackSelector.class, runtime.selector, null),
            bundle.registerService(Flows.class, runtime.flows, null),
            bundle.registerService(PeerChannels.class, runtime.channels, null));
    }

    /** Service properties: the id, the name, and the methods installed now (for launchers to wait on). */
    private Dictionary<String, Object> properties() {
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put("polylink.context.id", runtime.id().toString());
        properties.put("polylink.methods", runtime.methods().toArray(String[]::new));
        if (name != null) {
            properties.put("polylink.name", name);
        }
        return properties;
    }

    /**
     * Publishes the system endpoint once a registry is there, and again whenever the registry or
     * the methods change: a published startpoint carries the table of its moment.
     */
    private void methodsChanged() {
        publish();
        if (registration != null) {
            try {
                registration.setProperties(properties());
            } catch (IllegalStateException unregistered) {
                // deactivating
            }
        }
    }

    private void publish() {
        if (name != null) {
            try {
                runtime.publish(name, runtime.system().startpoint());
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "cannot publish this context as '" + name + "': " + e.getMessage());
            }
        }
    }

    @Deactivate
    void deactivate() {
        if (name != null) {
            try {
                runtime.unpublish(name);
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "could not unpublish '" + name + "': " + e.getMessage());
            }
        }
        parts.forEach(ContextComponent::unregister);
        unregister(registration);
        runtime.close();
    }

    private static void unregister(ServiceRegistration<?> registration) {
        try {
            registration.unregister();
        } catch (IllegalStateException alreadyGone) {
            // the framework is stopping and took the registration with it
        }
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
        policyOption = ReferencePolicyOption.GREEDY, target = "(" + CommunicationMethod.NAME_PROPERTY + "=*)")
    void addMethod(CommunicationMethod method, Map<String, Object> properties) {
        try {
            runtime.addMethod(method, preference(properties));
            methodsChanged();
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "method " + method.name() + " left out: " + e.getMessage(), e);
        }
    }

    void removeMethod(CommunicationMethod method) {
        runtime.removeMethod(method);
        methodsChanged();
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
        policyOption = ReferencePolicyOption.GREEDY, target = "(" + Transform.NAME_PROPERTY + "=*)")
    void addTransform(Transform transform) {
        try {
            runtime.addTransform(transform);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "transform " + transform.name() + " left out: " + e.getMessage(), e);
        }
    }

    void removeTransform(Transform transform) {
        runtime.removeTransform(transform);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
        policyOption = ReferencePolicyOption.GREEDY)
    void setPolicy(SelectionPolicy policy) {
        runtime.selector.policy(policy);
    }

    void unsetPolicy(SelectionPolicy policy) {
        runtime.selector.policyGone(policy);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
        policyOption = ReferencePolicyOption.GREEDY)
    void setRegistry(NameRegistry registry) {
        runtime.naming.use(registry);
        publish();
    }

    void unsetRegistry(NameRegistry registry) {
        runtime.naming.gone(registry);
    }

    private static int preference(Map<String, Object> properties) {
        Object value = properties.get(CommunicationMethod.PREFERENCE_PROPERTY);
        if (value instanceof Number n) {
            return n.intValue();
        }
        if (value instanceof String s) {
            try {
                return Integer.parseInt(s.strip());
            } catch (NumberFormatException e) {
                LOG.log(Level.WARNING, "ignoring " + CommunicationMethod.PREFERENCE_PROPERTY + "=" + s
                    + ": not an integer");
            }
        }
        return 100;
    }
}
