package io.polylink.core.internal.provision;

import io.polylink.core.internal.config.CoreConfig;
import io.polylink.core.internal.config.CoreSettings;
import io.polylink.core.internal.config.CoreUpdate;
import io.polylink.core.internal.observe.RateLimitedLog;
import io.polylink.core.internal.provision.RepositoryIndex.Resource;
import io.polylink.core.internal.select.InstallOnDemand;
import io.polylink.core.internal.select.StackSelector;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.wiring.BundleCapability;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;

/**
 * Installs the bundle of a method or transform the context lacks, found by its capability in the
 * configured repository index, then starts it; the method's service arriving makes every link
 * select again. It attaches to the context's selection, which then tells it what it meets;
 * descriptor files ask directly ({@link DescriptorFileInstaller}). Work runs on one thread of its
 * own ({@code polylink-provision}), never on a sending or receiving thread. Each name is installed
 * once; a failure is logged once and tried again after a growing pause (1 s, 2 s, … 5 min) when
 * the name is met again.
 *
 * <p>A bundle already in the framework that declares the capability is never installed again nor
 * started: whoever stopped it meant it (an update in progress, an operator).
 *
 * <p>A peer's tables can name methods and transforms at will, so what they make this provisioner
 * hold is bounded: at most {@value #MAX_NAMES} names at once (a name that failed and only
 * selection asked for is forgotten first), and failures are logged a few lines a second. Nothing
 * an install throws, an Error too, ends the thread.
 */
// immediate: it must attach to selection whether or not anyone uses the service (the shell, FileInstall).
// @CoreConfig: its service carries the core's configuration, defaults included, such as the repository.
@Component(service = Provisioner.class, configurationPid = CoreSettings.PID,
    configurationPolicy = ConfigurationPolicy.OPTIONAL, immediate = true)
@CoreConfig
public final class Provisioner implements InstallOnDemand {

    private static final System.Logger LOG = System.getLogger("io.polylink.core");
    private static final long FIRST_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long LAST_RETRY_NANOS = TimeUnit.MINUTES.toNanos(5);
    /** The owner of names selection asked for: never released. */
    private static final String SELECTION = "selection";
    /** Lines a second saying an install failed, each naming its own name. */
    private static final int FAILURES_PER_SECOND = 5;
    /** Names tracked at once: installed, installing, or failed and waiting to be tried again. */
    static final int MAX_NAMES = 256;

    private final BundleContext framework;
    private final StackSelector selection;
    private volatile ProvisionSettings settings;
    /** The configuration the settings were read from, for reading the next one against; guarded by this. */
    private Map<String, Object> inForce;
    private final ThreadPoolExecutor worker;
    /** By namespace=name, oldest first; guarded by this. */
    private final Map<String, Attempt> attempts = new LinkedHashMap<>();
    private final RateLimitedLog failures = new RateLimitedLog(LOG, TimeUnit.SECONDS.toNanos(1));

    /** One name's provisioning: who asked, where it stands, what it installed. Guarded by the provisioner. */
    private static final class Attempt {
        final String namespace;
        final String name;
        final Set<String> owners = new HashSet<>();
        boolean running;
        boolean done;
        int failures;
        long retryAt = System.nanoTime();
        String note = "";
        Bundle installed;
        /** The bundle that provides the name once it is done: the one installed, or the one found present. */
        Bundle provider;

        Attempt(String namespace, String name) {
            this.namespace = namespace;
            this.name = name;
        }
    }

    /** What an install did: the bundle that provides the name (null if none was installed) and a line saying so. */
    private record Provided(Bundle bundle, String report) {}

    @Activate
    public Provisioner(BundleContext framework, @Reference StackSelector selection, Map<String, Object> properties) {
        this.framework = framework;
        this.selection = selection;
        configure(properties);
        this.worker = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "polylink-provision");
            t.setDaemon(true);
            return t;
        });
        this.worker.allowCoreThreadTimeOut(true);
        selection.onDemand(this);
    }

    /**
     * Takes the repository and the install rules of a new core configuration; what is installing
     * goes on. Values the configuration cannot use are refused as the context component refuses
     * (and logs) them.
     */
    @Modified
    synchronized void configure(Map<String, Object> properties) {
        CoreUpdate update = CoreUpdate.read(properties, inForce == null ? Map.of() : inForce);
        inForce = update.properties();
        settings = ProvisionSettings.of(update.config(), framework.getProperty("polylink.repository"));
    }

    @Deactivate
    void deactivate() {
        selection.onDemandGone(this);
        worker.shutdownNow();
        try {
            if (!worker.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.log(Level.WARNING, "polylink-provision did not finish an install within 10 s of the core stopping");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return the settings in force */
    ProvisionSettings settings() {
        return settings;
    }

    @Override
    public String missing(String namespace, String name) {
        return request(namespace, name, SELECTION);
    }

    /**
     * Asks for a method or transform on behalf of {@code owner} (a descriptor file, or selection)
     * and returns at once.
     *
     * @return where the request stands, as text to append to a reason: empty or starting with "; "
     */
    synchronized String request(String namespace, String name, String owner) {
        String refusal = settings.refusal(name);
        if (refusal != null) {
            return "; " + refusal;
        }
        String key = namespace + "=" + name;
        forgetIfUninstalled(key);
        if (!attempts.containsKey(key) && !makeRoom()) {
            return "; not installed: " + MAX_NAMES + " other names wait to be installed or tried again";
        }
        Attempt a = attempts.computeIfAbsent(key, k -> new Attempt(namespace, name));
        a.owners.add(owner);
        if (!a.running && !a.done && System.nanoTime() - a.retryAt >= 0) {
            a.running = true;
            a.note = "; installing it from " + settings.repository();
            try {
                worker.execute(() -> attempt(a));
            } catch (RejectedExecutionException stopping) {
                a.running = false;
                a.note = "; not installed: the core is stopping";
            }
        }
        return a.note;
    }

    /** A name whose bundle someone uninstalled since is installed again when it is met again. Caller holds the lock. */
    private void forgetIfUninstalled(String key) {
        Attempt a = attempts.get(key);
        if (a != null && a.done && a.provider != null && a.provider.getState() == Bundle.UNINSTALLED) {
            attempts.remove(key);
        }
    }

    /** @return whether there is room for one more name, forgetting a failed one that only selection asked for if need be */
    private boolean makeRoom() {
        if (attempts.size() < MAX_NAMES) {
            return true;
        }
        for (Iterator<Attempt> it = attempts.values().iterator(); it.hasNext(); ) {
            Attempt a = it.next();
            if (!a.running && !a.done && a.owners.equals(Set.of(SELECTION))) {
                it.remove();
                return true;
            }
        }
        return false;
    }

    /**
     * Withdraws {@code owner}'s requests. A bundle installed only for it is uninstalled, so that
     * removing a descriptor file takes away what dropping it brought.
     */
    synchronized void release(String owner) {
        for (Iterator<Attempt> it = attempts.values().iterator(); it.hasNext(); ) {
            Attempt a = it.next();
            if (a.owners.remove(owner) && a.owners.isEmpty()) {
                it.remove();
                Bundle installed = a.installed;
                if (installed != null) {
                    worker.execute(() -> uninstall(installed, owner));
                }
            }
        }
    }

    /**
     * Installs a method or transform by name now, whatever {@code install.enabled} and
     * {@code install.allowed} say: for the shell, where an operator asks. Blocks up to 2 minutes.
     *
     * @return what was done, for people
     */
    String install(String name) {
        if (settings.repository() == null) {
            return "no bundle repository is configured: set 'repository' in io.polylink.core "
                + "(conf/io.polylink.core.cfg) to the path or URL of an OSGi Repository XML index";
        }
        Future<String> done;
        try {
            done = worker.submit(() -> installNamed(name));
        } catch (RejectedExecutionException e) {
            return "the core is stopping; nothing installed";
        }
        try {
            return done.get(2, TimeUnit.MINUTES);
        } catch (ExecutionException e) {
            return "cannot install " + name + ": " + e.getCause().getMessage();
        } catch (TimeoutException e) {
            return "still installing " + name + " after 2 minutes; the log will say how it ended";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted; " + name + " may still be installing";
        }
    }

    private String installNamed(String name) throws IOException {
        for (String namespace : List.of(METHOD, TRANSFORM)) {
            Bundle present = providerInFramework(namespace, name);
            if (present != null) {
                return "nothing to do: " + provides(present, namespace, name) + " and is " + state(present);
            }
        }
        RepositoryIndex index = RepositoryIndex.read(settings.repository());
        for (String namespace : List.of(METHOD, TRANSFORM)) {
            Optional<Resource> resource = index.provider(namespace, name);
            if (resource.isPresent()) {
                InstallPlan plan = InstallPlan.of(resource.get(), index, framework);
                List<Bundle> bundles = plan.installAndStart(framework);
                synchronized (this) {
                    Attempt a = attempts.computeIfAbsent(namespace + "=" + name, k -> new Attempt(namespace, name));
                    a.owners.add(SELECTION);
                    a.done = true;
                    a.installed = bundles.get(bundles.size() - 1);
                    a.provider = a.installed;
                    a.note = "; installed " + plan + " from " + index.location();
                }
                String report = "installed " + namespace + "=" + name + " from " + index.location() + ":\n"
                    + bundles.stream().map(b -> String.format("  %-5s %s %s %s", "[" + b.getBundleId() + "]",
                        b.getSymbolicName(), b.getVersion(), state(b))).collect(Collectors.joining("\n"));
                LOG.log(Level.INFO, report);
                return report;
            }
        }
        throw new ProvisionException("no bundle in " + index + " provides " + METHOD + "=" + name + " or "
            + TRANSFORM + "=" + name);
    }

    private void attempt(Attempt a) {
        Provided provided = null;
        Throwable failure = null;
        try {
            provided = provide(a.namespace, a.name);
        } catch (IOException e) {
            failure = new ProvisionException(e.getMessage(), e);
        } catch (Throwable e) {
            failure = e;
        }
        boolean firstFailure;
        synchronized (this) {
            a.running = false;
            if (failure == null) {
                a.done = true;
                a.installed = provided.bundle();
                a.provider = a.installed != null ? a.installed : providerInFramework(a.namespace, a.name);
                a.note = "; " + provided.report();
                firstFailure = false;
            } else {
                a.failures++;
                long pause = Math.min(LAST_RETRY_NANOS, FIRST_RETRY_NANOS << Math.min(a.failures - 1, 20));
                a.retryAt = System.nanoTime() + pause;
                a.note = "; cannot install it: " + failure.getMessage() + " (tried " + a.failures
                    + (a.failures == 1 ? " time" : " times") + "; next try in " + TimeUnit.NANOSECONDS.toSeconds(pause)
                    + " s)";
                firstFailure = a.failures == 1;
            }
        }
        if (failure == null) {
            LOG.log(Level.INFO, a.namespace + "=" + a.name + ": " + provided.report());
        } else if (firstFailure) {
            failures.warn("install failed", FAILURES_PER_SECOND, "cannot install " + a.namespace + "=" + a.name
                + ", which this context met but lacks: " + failure, failure);
        } else {
            LOG.log(Level.DEBUG, "cannot install " + a.namespace + "=" + a.name + " again: " + failure);
        }
        if (a.installed != null && !isOwned(a)) {
            uninstall(a.installed, "its last owner while it installed");
        }
    }

    private synchronized boolean isOwned(Attempt a) {
        return attempts.get(a.namespace + "=" + a.name) == a;
    }

    private Provided provide(String namespace, String name) throws IOException {
        Bundle present = providerInFramework(namespace, name);
        if (present != null) {
            return new Provided(null, presentReport(present, namespace, name));
        }
        RepositoryIndex index = RepositoryIndex.read(settings.repository());
        Resource resource = index.provider(namespace, name).orElseThrow(() -> new ProvisionException(
            "no bundle in " + index + " provides " + namespace + "=" + name + "; add one whose manifest says "
                + "'Provide-Capability: " + namespace + ";" + namespace + "=" + name + "' and index it again, "
                + "or install one by hand"));
        InstallPlan plan = InstallPlan.of(resource, index, framework);
        List<Bundle> bundles = plan.installAndStart(framework);
        return new Provided(bundles.get(bundles.size() - 1), "installed " + plan + " from " + index.location());
    }

    private static String presentReport(Bundle b, String namespace, String name) {
        return b.getState() == Bundle.ACTIVE || b.getState() == Bundle.STARTING
            ? provides(b, namespace, name) + " and is active; its service is not (yet) registered"
            : provides(b, namespace, name) + " but is " + state(b) + "; start it (felix:start " + b.getBundleId()
                + ") if that was not meant";
    }

    private static String provides(Bundle b, String namespace, String name) {
        return "bundle " + b.getSymbolicName() + " " + b.getVersion() + " [" + b.getBundleId() + "] provides "
            + namespace + "=" + name;
    }

    private Bundle providerInFramework(String namespace, String name) {
        for (Bundle b : framework.getBundles()) {
            BundleRevision revision = b.adapt(BundleRevision.class);
            if (revision != null) {
                for (BundleCapability c : revision.getDeclaredCapabilities(namespace)) {
                    if (name.equals(c.getAttributes().get(namespace))) {
                        return b;
                    }
                }
            }
        }
        return null;
    }

    private static void uninstall(Bundle bundle, String owner) {
        try {
            bundle.uninstall();
            LOG.log(Level.INFO, "uninstalled " + bundle.getSymbolicName() + " " + bundle.getVersion()
                + ", installed for " + owner + ", which is gone");
        } catch (BundleException | IllegalStateException e) {
            LOG.log(Level.DEBUG, "bundle " + bundle.getSymbolicName() + " was already gone: " + e.getMessage());
        } catch (Throwable t) {
            LOG.log(Level.WARNING, "uninstalling " + bundle.getSymbolicName() + " " + bundle.getVersion() + " threw "
                + t, t);
        }
    }

    private static String state(Bundle b) {
        return switch (b.getState()) {
            case Bundle.ACTIVE -> "ACTIVE";
            case Bundle.RESOLVED -> "RESOLVED";
            case Bundle.INSTALLED -> "INSTALLED";
            case Bundle.STARTING -> "STARTING";
            case Bundle.STOPPING -> "STOPPING";
            default -> "UNINSTALLED";
        };
    }
}
