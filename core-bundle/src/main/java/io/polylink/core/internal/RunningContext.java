package io.polylink.core.internal;

import io.polylink.Context;
import io.polylink.core.internal.channel.PeerChannels;
import io.polylink.core.internal.config.CoreSettings;
import io.polylink.core.internal.flow.Flows;
import io.polylink.core.internal.jmx.ManagedBeans;
import io.polylink.core.internal.registry.Installed;
import io.polylink.core.internal.select.StackSelector;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Transform;
import java.lang.System.Logger.Level;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.function.Consumer;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;

/**
 * One runtime of the context as the OSGi component runs it: the runtime, its name published, its
 * JMX beans, and the services it is registered as: the {@link Context}, then the parts the
 * bundle's own components use (the registry of installed methods, selection, the flows and the
 * channels).
 *
 * <p>The services are registered by hand rather than as the component's own, so each service
 * object is the part itself, never a half-activated component, and a runtime can be replaced
 * while the component stays. Not thread-safe: the component uses it under its lock.
 */
final class RunningContext {

    private static final System.Logger LOG = System.getLogger("io.polylink.core");

    final ContextRuntime runtime;
    private final NamePublication publication;
    private final Runnable republish;
    private final ServiceRegistration<Context> registration;
    private final List<ServiceRegistration<?>> parts;
    private final ManagedBeans beans;

    /**
     * Makes a runtime, gives it what is bound, publishes it and registers its services.
     *
     * @param settings the settings, the id chosen
     * @param name the name to publish under, or {@code null}
     * @param bound gives the new runtime the services bound so far, before it is published
     */
    RunningContext(BundleContext bundle, CoreSettings settings, String name, Consumer<RunningContext> bound) {
        runtime = new ContextRuntime(settings);
        publication = new NamePublication(runtime, name);
        republish = publication::publish;
        runtime.installed.watch(republish);
        bound.accept(this);
        publication.publish();
        registration = bundle.registerService(Context.class, runtime, properties());
        parts = List.of(bundle.registerService(Installed.class, runtime.installed, null),
            bundle.registerService(StackSelector.class, runtime.selector, null),
            bundle.registerService(Flows.class, runtime.flows, null),
            bundle.registerService(PeerChannels.class, runtime.channels, null));
        beans = new ManagedBeans(runtime, publication::name, runtime.flows, task -> runtime.later(task, 0));
    }

    /** Starts a method and adds it; one that fails to start is logged and left out. */
    void addMethod(CommunicationMethod method, int preference) {
        try {
            runtime.addMethod(method, preference);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "method " + method.name() + " left out: " + e.getMessage(), e);
        }
        propertiesChanged();
    }

    void removeMethod(CommunicationMethod method) {
        runtime.removeMethod(method);
        propertiesChanged();
    }

    /**
     * Stops a method and starts it again: its service's properties changed, as they do when a
     * method keeps its instance across a change of its configuration, which it takes at its next
     * start. Its links move meanwhile and come back.
     */
    void restartMethod(CommunicationMethod method, int preference) {
        LOG.log(Level.INFO, "method " + method.name() + " restarts in " + runtime + ": the properties of its "
            + "service changed; its links move meanwhile and come back");
        runtime.removeMethod(method);
        addMethod(method, preference);
    }

    void addTransform(Transform transform) {
        try {
            runtime.addTransform(transform);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "transform " + transform.name() + " left out: " + e.getMessage(), e);
        }
    }

    /** Publishes under {@code name} from now on ({@code null}: under none). */
    void rename(String name) {
        publication.rename(name);
        propertiesChanged();
    }

    /** @return the name published under, or {@code null} */
    String name() {
        return publication.name();
    }

    /** Publishes again: a naming registry arrived. */
    void republish() {
        publication.publish();
    }

    /** Service properties: the id, the name, and the methods installed now (for launchers to wait on). */
    private Dictionary<String, Object> properties() {
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put("polylink.context.id", runtime.id().toString());
        properties.put("polylink.methods", runtime.methods().toArray(String[]::new));
        String name = publication.name();
        if (name != null) {
            properties.put("polylink.name", name);
        }
        return properties;
    }

    private void propertiesChanged() {
        if (registration != null) {
            try {
                registration.setProperties(properties());
            } catch (IllegalStateException unregistered) {
                // the framework is stopping
            }
        }
    }

    /**
     * Unregisters the services and closes the runtime, which stops its methods.
     *
     * @param withdrawName whether to take the name out of the registry too: not when a new runtime
     *     of the same context takes over
     */
    void close(boolean withdrawName) {
        beans.close();
        publication.end(withdrawName);
        runtime.installed.unwatch(republish);
        parts.forEach(RunningContext::unregister);
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
}
