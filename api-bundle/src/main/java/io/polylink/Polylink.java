package io.polylink;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.Objects;
import java.util.ServiceLoader;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A context started by a plain Java application, in this JVM, and the runtime that carries it.
 *
 * <p>The runtime is an OSGi framework of its own, hidden from the application: methods and
 * transforms still come as bundles, so they can be added, updated and removed while traffic flows
 * (through {@link #deployDirectory()}), and a method met in a peer's descriptor table is installed
 * on demand. The application sees only this package.
 *
 * <pre>{@code
 * try (Polylink polylink = Polylink.start(PolylinkSettings.builder().name("worker").build())) {
 *     Context context = polylink.context();
 *     ...
 * }
 * }</pre>
 *
 * <p>{@link #start} needs a launcher on the class path: the artifact
 * {@code io.polylink:polylink-embedded}. Inside an OSGi framework, use the {@link Context}
 * service instead.
 *
 * <p>All methods are thread-safe.
 */
@ProviderType
public interface Polylink extends AutoCloseable {

    /**
     * Starts a context as {@code settings} say and waits until it runs with every method and
     * transform they name.
     *
     * @param settings what to start
     * @return the running context's handle; close it to stop the context
     * @throws PolylinkException naming the cause if no launcher is on the class path, a setting
     *     cannot be met (an unknown method, a storage directory that is not Polylink's), or the
     *     context did not come up within the start timeout. Nothing is left running or on disk.
     */
    static Polylink start(PolylinkSettings settings) {
        Objects.requireNonNull(settings, "settings");
        Iterator<PolylinkLauncher> launchers =
            ServiceLoader.load(PolylinkLauncher.class, Polylink.class.getClassLoader()).iterator();
        if (!launchers.hasNext()) {
            throw new PolylinkException("no Polylink launcher on the class path: add the artifact "
                + "io.polylink:polylink-embedded (inside an OSGi framework, use the io.polylink.Context service)");
        }
        return launchers.next().start(settings);
    }

    /** @return the context; it works until {@link #close()} */
    Context context();

    /**
     * @return the directory the runtime keeps its files in: the framework's cache, the bundle
     *     repository methods are installed from, {@link #deployDirectory()}
     */
    Path storage();

    /**
     * @return a directory watched while the context runs: a bundle jar put there is installed
     *     and started, replaced is updated, removed is uninstalled; a {@code NAME.method} file
     *     lists method stacks (one per line) to add to this context's descriptor table. Write a
     *     file elsewhere on the same file system and move it in, so it is never read half-written.
     */
    Path deployDirectory();

    /**
     * Stops the context and its runtime: links close, every thread the runtime started ends,
     * and the storage directory is removed unless the settings keep it. Does nothing if already
     * closed. Call it from a thread of the application's, not from a handler: a handler runs on a
     * thread the runtime stops.
     *
     * @throws PolylinkException if the runtime did not stop within the start timeout; what could
     *     be removed is removed
     */
    @Override
    void close();
}
