package io.polylink.registry.zookeeper.internal;

import io.polylink.spi.NameRegistry;
import java.io.IOException;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Registers the ZooKeeper naming registry while the configuration of {@code io.polylink.registry}
 * says {@code type=zookeeper}, ranked above the core's directory registry, so the context uses it;
 * under any other type it registers nothing. A changed configuration replaces the registry: the
 * context then publishes its names in the new one.
 */
@Component(configurationPid = RegistrySettings.PID, configurationPolicy = ConfigurationPolicy.REQUIRE, immediate = true,
    service = {})
@Designate(ocd = ZooKeeperRegistryComponent.Config.class)
public final class ZooKeeperRegistryComponent {

    /** Configuration of the ZooKeeper registry, PID {@code io.polylink.registry}. */
    @ObjectClassDefinition(name = "Polylink ZooKeeper registry")
    @interface Config {
        @AttributeDefinition(description = "Which registry the context uses: directory (the core's) or zookeeper "
            + "(this bundle's)")
        String type() default "directory";

        @AttributeDefinition(description = "The ZooKeeper ensemble, host:port of each server, comma-separated")
        String connect() default "";

        @AttributeDefinition(description = "The node of this installation; the names go under it")
        String chroot() default "/polylink";

        @AttributeDefinition(description = "The node under the chroot that holds the names (an MPI job's id)")
        String group() default "names";

        @AttributeDefinition(description = "How long ZooKeeper keeps the names of a context it cannot hear, in ms")
        int sessionTimeoutMs() default 15000;

        @AttributeDefinition(description = "How long a publish or lookup waits for a connection to ZooKeeper, in ms")
        int connectionTimeoutMs() default 5000;
    }

    private static final Logger LOG = Logger.getLogger(ZooKeeperRegistryComponent.class.getName());
    /** ZooKeeper's and Curator's loggers, held so the level set on them stays (JUL keeps loggers weakly). */
    private final List<Logger> quiet = List.of(Logger.getLogger("org.apache.zookeeper"),
        Logger.getLogger("org.apache.curator"));
    private final BundleContext bundle;
    private ZooKeeperNameRegistry registry;
    private ServiceRegistration<NameRegistry> registration;

    @Activate
    public ZooKeeperRegistryComponent(BundleContext bundle, Config config) throws IOException {
        this.bundle = bundle;
        for (Logger l : quiet) {
            if (l.getLevel() == null) {
                // Their lines (every connection, every failed attempt while ZooKeeper is away) are not a context's
                // news: the registry says itself what failed, and when the session is lost.
                l.setLevel(Level.SEVERE);
            }
        }
        start(config);
    }

    @Modified
    synchronized void modified(Config config) throws IOException {
        stop();
        start(config);
    }

    private synchronized void start(Config config) throws IOException {
        if (!config.type().equals("zookeeper")) {
            return;
        }
        registry = ZooKeeperNameRegistry.open(RegistrySettings.of(config));
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Constants.SERVICE_RANKING, 0);
        properties.put("polylink.registry.type", "zookeeper");
        registration = bundle.registerService(NameRegistry.class, registry, properties);
        LOG.log(Level.FINE, "names go to " + registry);
    }

    @Deactivate
    synchronized void stop() {
        if (registration != null) {
            try {
                registration.unregister();
            } catch (IllegalStateException alreadyGone) {
                // the bundle is stopping and took the registration with it
            }
            registration = null;
        }
        if (registry != null) {
            registry.close();
            registry = null;
        }
    }
}
