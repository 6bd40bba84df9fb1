package io.polylink.core.internal;

import io.polylink.ContextId;
import io.polylink.core.internal.config.CoreConfig;
import io.polylink.core.internal.config.CoreSettings;
import io.polylink.core.internal.config.CoreUpdate;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.InvalidSettingException;
import io.polylink.spi.NameRegistry;
import io.polylink.spi.SelectionPolicy;
import io.polylink.spi.Transform;
import java.io.File;
import java.lang.System.Logger.Level;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Runs the framework's context: tracks method, transform, policy and naming registry services as
 * they come and go, and keeps a {@link RunningContext} registered as the framework's
 * {@link io.polylink.Context}.
 *
 * <p>A change of the configuration never takes the context down. What can change while it runs
 * (the table, limits, timeouts, the name, provisioning) applies in place, with the context's id,
 * its methods' ports and its links kept. A change that only a new runtime can apply (the message
 * size, the host, the site, the id) replaces the runtime, with its id kept unless the id is what
 * changed, and says so in one log line. A value that cannot be used is refused, in one log line
 * naming the PID, the key, the value and what is allowed, and the value in force stays.
 */
@Component(configurationPid = CoreSettings.PID, configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = CoreConfig.class)
public final class ContextComponent {

    private static final System.Logger LOG = System.getLogger("io.polylink.core");

    private final BundleContext bundle;
    private final ContextIdentity identity;
    private final BoundServices bound = new BoundServices();
    /** Guarded by this. */
    private CoreUpdate config;
    /** Guarded by this. */
    private RunningContext running;

    /** @param properties the {@code io.polylink.core} configuration, keyed as {@link CoreConfig} */
    @Activate
    public ContextComponent(BundleContext bundle, Map<String, Object> properties) {
        this.bundle = bundle;
        File data = bundle.getDataFile("context-id");
        this.identity = new ContextIdentity(data == null ? null : data.toPath(),
            ContextIdentity.place(bundle.getProperty("polylink.home"), data == null ? null : data.toPath().getParent()));
        synchronized (this) {
            config = read(properties, Map.of());
            String name = name(config.config());
            running = start(identity.choose(config.settings(), name, null), name);
        }
    }

    @Modified
    synchronized void modified(Map<String, Object> properties) {
        CoreUpdate next = read(properties, config.properties());
        Set<String> changed = next.changedFrom(config);
        config = next;
        if (changed.isEmpty()) {
            return;
        }
        Set<String> restart = CoreUpdate.needingRestart(changed);
        ContextId before = running.runtime.id();
        if (restart.isEmpty()) {
            LOG.log(Level.INFO, String.join(", ", changed) + " of " + CoreSettings.PID + " applies in place; "
                + running.runtime + (Collections.disjoint(changed, CoreUpdate.RECHECKED) ? " keeps its links"
                : " keeps its links, and its connections open again so their stacks are checked against it"));
            running.runtime.reconfigure(next.settings().withId(before));
            running.rename(name(next.config()));
            return;
        }
        String name = name(next.config());
        ContextId after = identity.choose(next.settings(), name, before);
        LOG.log(Level.INFO, String.join(", ", restart) + " of " + CoreSettings.PID + " changed, which only a new "
            + "context runtime applies: it starts again " + (after.equals(before) ? "as context " + before
            + " (id kept)" : "as context " + after + " (was " + before + ")") + "; links to it close and come "
            + "back, its endpoints close");
        running.close(!Objects.equals(name, running.name()));
        running = start(after, name);
    }

    /** Reads a configuration against the one in force, logging each value it refuses. */
    private static CoreUpdate read(Map<String, Object> properties, Map<String, Object> inForce) {
        CoreUpdate update = CoreUpdate.read(properties, inForce);
        for (InvalidSettingException e : update.refused()) {
            LOG.log(Level.WARNING, e.getMessage() + "; refused, " + e.key() + " stays " + update.value(e.key()));
        }
        return update;
    }

    /** Starts a runtime of the configuration in force with this id, publishing under this name (if any). */
    private RunningContext start(ContextId id, String name) {
        identity.record(id);
        return new RunningContext(bundle, config.settings().withId(id), name, bound::applyTo);
    }

    /** @return the name to publish under: the configured one, else the framework's {@code polylink.name}; or null */
    private String name(CoreConfig config) {
        String configured = config.name().isBlank() ? bundle.getProperty("polylink.name") : config.name();
        return configured == null || configured.isBlank() ? null : configured.strip();
    }

    @Deactivate
    synchronized void deactivate() {
        running.close(true);
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
        policyOption = ReferencePolicyOption.GREEDY, target = "(" + CommunicationMethod.NAME_PROPERTY + "=*)",
        updated = "updatedMethod")
    synchronized void addMethod(CommunicationMethod method, Map<String, Object> properties) {
        int preference = preference(properties);
        bound.methods.put(method, preference);
        running.addMethod(method, preference);
    }

    /** The method's service properties changed: it kept its instance across a new configuration. */
    synchronized void updatedMethod(CommunicationMethod method, Map<String, Object> properties) {
        int preference = preference(properties);
        bound.methods.put(method, preference);
        running.restartMethod(method, preference);
    }

    synchronized void removeMethod(CommunicationMethod method) {
        bound.methods.remove(method);
        running.removeMethod(method);
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
        policyOption = ReferencePolicyOption.GREEDY, target = "(" + Transform.NAME_PROPERTY + "=*)")
    synchronized void addTransform(Transform transform) {
        bound.transforms.add(transform);
        running.addTransform(transform);
    }

    synchronized void removeTransform(Transform transform) {
        bound.transforms.remove(transform);
        running.runtime.removeTransform(transform);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
        policyOption = ReferencePolicyOption.GREEDY)
    synchronized void setPolicy(SelectionPolicy policy) {
        bound.policy = policy;
        running.runtime.selector.policy(policy);
    }

    synchronized void unsetPolicy(SelectionPolicy policy) {
        if (bound.policy == policy) {
            bound.policy = null;
        }
        running.runtime.selector.policyGone(policy);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
        policyOption = ReferencePolicyOption.GREEDY)
    synchronized void setRegistry(NameRegistry registry) {
        bound.registry = registry;
        running.runtime.naming.use(registry);
        running.republish();
    }

    synchronized void unsetRegistry(NameRegistry registry) {
        if (bound.registry == registry) {
            bound.registry = null;
        }
        running.runtime.naming.gone(registry);
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
