package io.polylink.mpi.internal.boot;

import io.polylink.Context;
import io.polylink.Polylink;
import io.polylink.PolylinkSettings;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The host of a rank in a JVM of its own, the way {@code polylink mpirun} starts ranks: the rank's
 * context is a Polylink runtime started in this JVM by {@link Polylink#start}, whose launcher
 * ({@code polylink-embedded}) must be on the class path. Inside an OSGi framework there is none,
 * and {@code MPI.Init} says so.
 *
 * <p>Besides the launch variables of {@link LaunchSettings}, it reads these, each optional:
 * {@value #METHODS} (the methods to start, comma-separated; {@code tcp,shm} by default),
 * {@value #TRANSFORMS} (the transforms to start; none by default), {@code POLYLINK_MPI_HOST} (the host
 * the rank runs on, as the core's {@code hostId}), {@value #STORAGE} (the runtime's
 * storage directory; a fresh one by default), {@value #SHM_DIRECTORY} (the shm method's segment
 * directory), {@value #TCP_ADDRESS} (the address tcp listens on), {@value #SITE} and
 * {@value #HOST_ID} (the core's {@code site} and {@code hostId}) and {@value #BUNDLES} (further
 * bundle jars to start, separated as a class path is).
 *
 * <p>A rank that meets the others in ZooKeeper starts the ZooKeeper registry bundle,
 * {@value #ZOOKEEPER_BUNDLE}: from {@value #BUNDLES}, else from {@code bundles/} beside the jar this
 * class came from ({@code lib/mpi/bundles/} in the distribution).
 */
final class EmbeddedRankHost implements RankHost {

    public static final String METHODS = "POLYLINK_MPI_METHODS";
    public static final String TRANSFORMS = "POLYLINK_MPI_TRANSFORMS";
    public static final String STORAGE = "POLYLINK_MPI_STORAGE";
    public static final String SHM_DIRECTORY = "POLYLINK_MPI_SHM_DIRECTORY";
    public static final String TCP_ADDRESS = "POLYLINK_MPI_TCP_ADDRESS";
    public static final String SITE = "POLYLINK_MPI_SITE";
    public static final String HOST_ID = "POLYLINK_MPI_HOST_ID";
    public static final String BUNDLES = "POLYLINK_MPI_BUNDLES";
    static final String ZOOKEEPER_BUNDLE = "polylink-registry-zookeeper.jar";
    private static final String SHM_PID = "io.polylink.method.shm";
    private static final String TCP_PID = "io.polylink.method.tcp";

    /**
     * How a rank's methods idle: their threads wait in the kernel (the shm poller parks as soon as
     * its ring is empty, the tcp I/O thread blocks in its selector), and the application thread,
     * which waits by yielding ({@link io.polylink.mpi.internal.request.Idle}), keeps the cores. A
     * method thread that spins after each message holds a core the waiting thread needs, on a host
     * with fewer cores than busy threads, until the scheduler takes it away a time slice later.
     * See docs/performance-notes.md#mpi-latency.
     */
    static final Map<String, Map<String, Object>> IDLING = Map.of(
        SHM_PID, Map.of("idleStrategy", "park"),
        TCP_PID, Map.of("idleStrategy", "block"));

    /** Held, so that the level set on it stays: java.util.logging keeps loggers weakly. */
    private final Logger runtimeLog = Logger.getLogger("io.polylink");
    private Polylink runtime;
    /** The thread that ends the JVM, once an end started. */
    private Thread exiting;

    /**
     * Starts the rank's runtime. Its log lines below WARNING are left out, unless the program's
     * logging configuration sets a level for {@code io.polylink}: a rank's output is the program's.
     */
    @Override
    public Context open(LaunchSettings settings) {
        if (runtimeLog.getLevel() == null) {
            runtimeLog.setLevel(Level.WARNING);
        }
        runtime = Polylink.start(settings(environment(), settings, IDLING));
        return runtime.context();
    }

    /**
     * @return what the environment alone asks {@link Polylink#start} to start for the rank
     *     {@code launch} describes: its methods idle as their defaults say
     * @throws IllegalArgumentException naming the variable whose value is not a valid setting
     */
    static PolylinkSettings settings(Map<String, String> env, LaunchSettings launch) {
        return settings(env, launch, Map.of());
    }

    /**
     * @param idling configuration of methods by PID that the environment's values add to
     * @return what {@link Polylink#start} starts for the rank {@code launch} describes
     * @throws IllegalArgumentException naming the variable whose value is not a valid setting
     */
    static PolylinkSettings settings(Map<String, String> env, LaunchSettings launch,
                                     Map<String, Map<String, Object>> idling) {
        PolylinkSettings.Builder b = PolylinkSettings.builder();
        List<String> methods = value(env, METHODS).map(list -> List.of(names(METHODS, list)))
            .orElse(PolylinkSettings.DEFAULT_METHODS);
        b.methods(methods.toArray(String[]::new));
        Map<String, Object> core = new HashMap<>();
        value(env, TRANSFORMS).ifPresent(list -> {
            String[] transforms = names(TRANSFORMS, list);
            b.transforms(transforms);
            core.put("table", table(methods, transforms));
        });
        value(env, SITE).ifPresent(site -> core.put("site", site));
        // The core's host identity follows the launcher's, so shm links exactly the ranks collectives
        // group as one host; a launcher that knows the host's own identity says so apart.
        value(env, HOST_ID).or(() -> value(env, LaunchSettings.HOST)).ifPresent(id -> core.put("hostId", id));
        if (!core.isEmpty()) {
            b.configure("io.polylink.core", core);
        }
        value(env, STORAGE).ifPresent(dir -> b.storage(Path.of(dir)));
        List<Path> bundles = value(env, BUNDLES).map(list -> Arrays.stream(list.split(File.pathSeparator))
            .filter(p -> !p.isBlank()).map(Path::of).toList()).orElse(List.of());
        bundles.forEach(b::bundle);
        if (launch.registry() != null) {
            b.configure("io.polylink.registry", Map.of("directory", launch.registry().toString()));
        } else if (launch.zookeeper() != null) {
            int slash = launch.zookeeper().indexOf('/');
            Map<String, Object> registry = new HashMap<>(Map.of("type", "zookeeper", "group", launch.job(),
                "connect", slash < 0 ? launch.zookeeper() : launch.zookeeper().substring(0, slash)));
            if (slash >= 0 && slash < launch.zookeeper().length() - 1) {
                registry.put("chroot", launch.zookeeper().substring(slash));
            }
            b.configure("io.polylink.registry", registry);
            if (bundles.stream().noneMatch(p -> p.getFileName().toString().startsWith("polylink-registry-zookeeper"))) {
                b.bundle(zookeeperBundle());
            }
        }
        Map<String, Map<String, Object>> configured = new HashMap<>();
        idling.forEach((pid, properties) -> configured.put(pid, new HashMap<>(properties)));
        given(configured, SHM_PID, LaunchSettings.methodSettings(env, LaunchSettings.SHM_SETTINGS));
        given(configured, TCP_PID, LaunchSettings.methodSettings(env, LaunchSettings.TCP_SETTINGS));
        value(env, SHM_DIRECTORY).ifPresent(dir -> configured.computeIfAbsent(SHM_PID, pid -> new HashMap<>())
            .put("directory", dir));
        value(env, TCP_ADDRESS).ifPresent(a -> configured.computeIfAbsent(TCP_PID, pid -> new HashMap<>())
            .put("bindAddress", a));
        configured.forEach((pid, properties) -> b.configure(pid, properties));
        return b.build();
    }

    /** Adds the settings a variable gives method {@code pid} to {@code configured}, if it gives any. */
    private static void given(Map<String, Map<String, Object>> configured, String pid, Map<String, Object> settings) {
        if (!settings.isEmpty()) {
            configured.computeIfAbsent(pid, p -> new HashMap<>()).putAll(settings);
        }
    }

    /** @return the ZooKeeper registry bundle in {@code bundles/} beside the jar this class came from */
    private static Path zookeeperBundle() {
        Path beside = null;
        try {
            Path jar = Path.of(EmbeddedRankHost.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            beside = jar.resolveSibling("bundles").resolve(ZOOKEEPER_BUNDLE);
            if (Files.isRegularFile(beside)) {
                return beside;
            }
        } catch (URISyntaxException | RuntimeException noCodeSource) {
            // said below
        }
        throw new IllegalArgumentException(LaunchSettings.REGISTRY + " names ZooKeeper, whose registry bundle "
            + ZOOKEEPER_BUNDLE + " is " + (beside == null ? "not found" : "not in " + beside.getParent())
            + "; name its jar in " + BUNDLES);
    }

    /**
     * @return the stacks a rank with transforms advertises: its methods, shm first, then each
     *     transform over each method but shm (within a host, compressing or encrypting costs and
     *     gains nothing), so that selection still picks plain stacks and a communicator's
     *     {@code polylink.stack} hint finds the others in every rank's table
     */
    static String[] table(List<String> methods, String[] transforms) {
        List<String> plain = new ArrayList<>(methods);
        if (plain.remove("shm")) {
            plain.add(0, "shm");
        }
        List<String> table = new ArrayList<>(plain);
        for (String t : transforms) {
            for (String m : plain) {
                if (!m.equals("shm")) {
                    table.add(t + "/" + m);
                }
            }
        }
        return table.toArray(String[]::new);
    }

    static Optional<String> value(Map<String, String> env, String name) {
        String v = env.get(name);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.trim());
    }

    /** @return the names of a comma-separated list, each checked as a method or transform name */
    private static String[] names(String variable, String list) {
        String[] names = Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty())
            .toArray(String[]::new);
        try {
            PolylinkSettings.builder().methods(names);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(variable + "='" + list + "': " + e.getMessage(), e);
        }
        return names;
    }

    /** Ends the JVM with {@code status} from a thread of its own; the first end started counts. */
    @Override
    public synchronized void exit(int status) {
        if (exiting == null) {
            exiting = new Thread(() -> System.exit(status), "polylink-mpi-exit");
            exiting.start();
        }
    }

    @Override
    public void awaitExit() {
        Thread exit;
        synchronized (this) {
            exit = exiting;
        }
        if (exit == null || Thread.currentThread().getName().startsWith("polylink-")) {
            return;
        }
        boolean interrupted = false;
        while (true) {
            try {
                exit.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        Polylink r = runtime;
        runtime = null;
        if (r != null) {
            r.close();
        }
    }
}
