package io.polylink.core.internal;

import java.lang.System.Logger.Level;
import java.util.Objects;

/**
 * The context's system endpoint as published under the context's name: published again whenever
 * the context's table changes (a published startpoint carries the table of its moment), moved
 * when the name changes, withdrawn when the context stops. Each publication reads the table as it
 * is then, one at a time, so the last one published follows the last change. Thread-safe.
 */
final class NamePublication {

    private static final System.Logger LOG = System.getLogger("io.polylink.core");

    private final ContextRuntime runtime;
    /** Guarded by this; {@code null} for none. */
    private String name;
    /** Guarded by this: once set, nothing is published any more. */
    private boolean ended;

    /** @param name the name to publish under, or {@code null} for none */
    NamePublication(ContextRuntime runtime, String name) {
        this.runtime = runtime;
        this.name = name;
    }

    /** @return the name published under, or {@code null} */
    synchronized String name() {
        return name;
    }

    /** Publishes the system endpoint with the table as it is now; a failure is logged. */
    synchronized void publish() {
        if (ended || name == null || !runtime.naming.ready()) {
            return; // a registry's arrival publishes
        }
        try {
            runtime.publish(name, runtime.system().startpoint());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "cannot publish this context as '" + name + "': " + e.getMessage());
        }
    }

    /** Withdraws the old name, if any, and publishes under {@code next}, if any. */
    synchronized void rename(String next) {
        if (ended || Objects.equals(name, next)) {
            return;
        }
        withdraw();
        name = next;
        publish();
    }

    /**
     * Publishes no more.
     *
     * @param withdraw whether to take the name out of the registry too: not when a new runtime of
     *     the same context is about to publish under it
     */
    synchronized void end(boolean withdraw) {
        if (withdraw && !ended) {
            withdraw();
        }
        ended = true;
    }

    private void withdraw() {
        if (name == null) {
            return;
        }
        try {
            runtime.unpublish(name);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "could not unpublish '" + name + "': " + e.getMessage());
        }
    }
}
