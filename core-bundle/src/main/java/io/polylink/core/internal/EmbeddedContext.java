package io.polylink.core.internal;

import io.polylink.Context;
import io.polylink.Startpoint;
import io.polylink.core.internal.config.CoreSettings;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.HostIdentity;
import io.polylink.spi.NameRegistry;
import io.polylink.spi.SelectionPolicy;
import io.polylink.spi.Transform;
import java.util.List;
import java.util.Map;

/**
 * A context outside OSGi: the same runtime the bundle registers, with methods, transforms, a
 * selection policy and a naming registry added by hand rather than found as services. What the
 * method bundles' tests, the benchmarks and the integration tests' processes run on. Not exported
 * from the bundle.
 */
public final class EmbeddedContext implements AutoCloseable {

    private final ContextRuntime runtime;

    private EmbeddedContext(CoreSettings settings) {
        this.runtime = new ContextRuntime(settings);
    }

    /** @return a context with default settings and only the {@code local} method */
    public static EmbeddedContext open() {
        return new EmbeddedContext(CoreSettings.DEFAULTS);
    }

    /**
     * @param host the host this context says it runs on: contexts given different identities
     *     count as on different hosts (shm then refuses to link them)
     * @return a context with default settings and only the {@code local} method
     */
    public static EmbeddedContext open(HostIdentity host) {
        return new EmbeddedContext(CoreSettings.DEFAULTS.onHost(host));
    }

    /**
     * @param maxMessageSize largest RSR payload in bytes
     * @param handlerThreads threads for executor handlers
     * @param table stacks to advertise after {@code local}; empty for all methods
     * @return a context with only the {@code local} method
     */
    public static EmbeddedContext open(int maxMessageSize, int handlerThreads, List<String> table) {
        return open(Map.of("maxMessageSize", maxMessageSize, "handlerThreads", handlerThreads, "table", table));
    }

    /**
     * @param configuration the core's configuration (PID {@code io.polylink.core}) as a {@code .cfg}
     *     file would give it, such as {@code Map.of("quietAckMs", "0")}; keys left out take their
     *     defaults
     * @return a context with only the {@code local} method
     * @throws io.polylink.spi.InvalidSettingException naming a key whose value cannot be used
     */
    public static EmbeddedContext open(Map<String, ?> configuration) {
        return new EmbeddedContext(CoreSettings.of(configuration));
    }

    /** @return a startpoint to the context's system endpoint (echo and relay services) */
    public Startpoint systemStartpoint() {
        return runtime.system().startpoint();
    }

    /** @return the context */
    public Context context() {
        return runtime;
    }

    /**
     * Starts a method and adds it, as a service with this preference would be.
     *
     * @return this
     */
    public EmbeddedContext add(CommunicationMethod method, int preference) {
        runtime.addMethod(method, preference);
        return this;
    }

    /** @return the installed method of that name, or {@code null} */
    public CommunicationMethod method(String name) {
        return runtime.installed.method(name);
    }

    /** @return one line per flow, what {@code polylink:links} prints: for a failing test's message */
    public List<String> links() {
        return runtime.flows.describe();
    }

    /** Stops and removes a method. @return this */
    public EmbeddedContext remove(CommunicationMethod method) {
        runtime.removeMethod(method);
        return this;
    }

    /** @return this */
    public EmbeddedContext add(Transform transform) {
        runtime.addTransform(transform);
        return this;
    }

    /** @return this */
    public EmbeddedContext remove(Transform transform) {
        runtime.removeTransform(transform);
        return this;
    }

    /**
     * Selects by {@code policy} from now on, as a {@link SelectionPolicy} service would make a
     * context in OSGi do.
     *
     * @return this
     */
    public EmbeddedContext add(SelectionPolicy policy) {
        runtime.selector.policy(policy);
        return this;
    }

    /** Goes back to the default policy if {@code policy} is the one in use. @return this */
    public EmbeddedContext remove(SelectionPolicy policy) {
        runtime.selector.policyGone(policy);
        return this;
    }

    /** @return this */
    public EmbeddedContext registry(NameRegistry registry) {
        runtime.naming.use(registry);
        return this;
    }

    @Override
    public void close() {
        runtime.close();
    }
}
