package io.polylink.core.internal;

import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.NameRegistry;
import io.polylink.spi.SelectionPolicy;
import io.polylink.spi.Transform;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The methods, transforms, selection policy and naming registry the framework has bound to the
 * context component, as its services gave them: what a new runtime of the context gets again
 * when the old one is replaced. Not thread-safe: the component uses it under its lock.
 */
final class BoundServices {

    /** Each method with its preference, in the order they came. */
    final Map<CommunicationMethod, Integer> methods = new LinkedHashMap<>();
    final List<Transform> transforms = new ArrayList<>();
    /** The policy in use, or {@code null} for the default; a greedy reference binds the new one first. */
    SelectionPolicy policy;
    /** The registry in use, or {@code null}; bound as the policy is. */
    NameRegistry registry;

    /** Gives a new runtime everything bound, as the services' arrival would. */
    void applyTo(RunningContext running) {
        if (registry != null) {
            running.runtime.naming.use(registry);
        }
        if (policy != null) {
            running.runtime.selector.policy(policy);
        }
        transforms.forEach(running::addTransform);
        methods.forEach(running::addMethod);
    }
}
