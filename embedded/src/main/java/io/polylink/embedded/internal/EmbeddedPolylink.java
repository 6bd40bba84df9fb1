package io.polylink.embedded.internal;

import io.polylink.Context;
import io.polylink.Polylink;
import io.polylink.PolylinkException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleException;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.launch.Framework;

/**
 * A running embedded context: the framework that carries it and its storage. Closed by the
 * application, or by the JVM's shutdown (System.exit, SIGTERM) if the application did not.
 */
final class EmbeddedPolylink implements Polylink {

    private static final String CORE = "io.polylink.core";

    private final Framework framework;
    private final Context context;
    private final Storage storage;
    private final boolean keepStorage;
    private final Duration stopTimeout;
    private final Thread shutdownHook;
    private final AtomicBoolean closed = new AtomicBoolean();

    EmbeddedPolylink(Framework framework, Context context, Storage storage, boolean keepStorage,
                     Duration stopTimeout, String name) {
        this.framework = framework;
        this.context = context;
        this.storage = storage;
        this.keepStorage = keepStorage;
        this.stopTimeout = stopTimeout;
        this.shutdownHook = new Thread(this::stop, "polylink-embedded-shutdown-" + name);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    @Override
    public Context context() {
        return context;
    }

    @Override
    public Path storage() {
        return storage.root();
    }

    @Override
    public Path deployDirectory() {
        return storage.deploy();
    }

    @Override
    public void close() {
        if (Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException exiting) {
                // the JVM is shutting down: the hook runs, or ran, stop() itself
            }
        }
        stop();
    }

    private void stop() {
        if (closed.compareAndSet(false, true)) {
            String unstopped = stop(framework, stopTimeout);
            String undeleted = keepStorage ? null : delete(storage);
            if (unstopped != null || undeleted != null) {
                throw new PolylinkException("context " + context.id() + " did not close cleanly: "
                    + (unstopped == null ? "" : unstopped) + (unstopped != null && undeleted != null ? "; " : "")
                    + (undeleted == null ? "" : undeleted));
            }
        }
    }

    /** @return what went wrong, or null if the framework stopped within {@code timeout} */
    static String stop(Framework framework, Duration timeout) {
        try {
            // The core first, while its methods run: closing in order, it tells each peer what arrived,
            // where methods leaving first would leave the peers' last RSRs unacknowledged.
            for (Bundle b : framework.getBundleContext().getBundles()) {
                if (CORE.equals(b.getSymbolicName())) {
                    b.stop();
                }
            }
            framework.stop();
            if (framework.waitForStop(timeout.toMillis()).getType() == FrameworkEvent.WAIT_TIMEDOUT) {
                return "its framework did not stop within " + timeout.toMillis() + " ms";
            }
            return null;
        } catch (BundleException e) {
            return "stopping its framework failed: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while its framework stopped";
        }
    }

    /** @return what went wrong, or null if the storage directory is gone */
    static String delete(Storage storage) {
        try {
            storage.delete();
            return null;
        } catch (IOException e) {
            return "cannot remove its storage directory " + storage.root() + ": " + e;
        }
    }

    @Override
    public String toString() {
        return "Polylink[context " + context.id() + ", storage " + storage.root() + "]";
    }
}
