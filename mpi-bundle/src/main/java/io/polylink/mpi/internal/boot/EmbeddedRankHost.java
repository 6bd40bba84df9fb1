package io.polylink.mpi.internal.boot;

import io.polylink.Context;
import io.polylink.Polylink;
import io.polylink.PolylinkSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
 * directory) and {@value #TCP_ADDRESS} (the address tcp listens on).
 */
final class EmbeddedRankHost implements RankHost {

    public static final String METHODS = "POLYLINK_MPI_METHODS";
    public static final String TRANSFORMS = "POLYLINK_MPI_TRANSFORMS";
    public static final String STORAGE = "POLYLINK_MPI_STORAGE";
    public static final String SHM_DIRECTORY = "POLYLINK_MPI_SHM_DIRECTORY";
    public static final String TCP_ADDRESS = "POLYLINK_MPI_TCP_ADDRESS";

    /** Held, so that the level set on it stays: java.util.logging keeps loggers weakly. */
    private final Logger runtimeLog = Logger.getLogger("io.polylink");
    private Polylink runtime;

    /**
     * Starts the rank's runtime. Its log lines below WARNING are left out, unless the program's
     * logging configuration sets a level for {@code io.polylink}: a rank's output is the program's.
     */
    @Override
    public Context open(LaunchSettings settings) {
        if (runtimeLog.getLevel() == null) {
            runtimeLog.setLevel(Level.WARNING);
        }
        runtime = Polylink.start(settings(environment(), settings));
        return runtime.context();
    }

    /**
     * @return what {@link Polylink#start} starts for the rank {@code launch} describes
     * @throws IllegalArgumentException naming the variable whose value is not a valid setting
     */
    static PolylinkSettings settings(Map<String, String> env, LaunchSettings launch) {
        PolylinkSettings.Builder b = PolylinkSettings.builder();
        List<String> methods = value(env, METHODS).map(list -> List.of(names(METHODS, list)))
            .orElse(PolylinkSettings.DEFAULT_METHODS);
        b.methods(methods.toArray(String[]::new));
        Map<String, Object> core = new java.util.HashMap<>();
        value(env, TRANSFORMS).ifPresent(list -> {
            String[] transforms = names(TRANSFORMS, list);
            b.transforms(transforms);
            core.put("table", table(methods, transforms));
        });
        // The core's host identity follows the launcher's: shm links exactly the ranks collectives group as one host.
        value(env, LaunchSettings.HOST).ifPresent(host -> core.put("hostId", host));
        if (!core.isEmpty()) {
            b.configure("io.polylink.core", core);
        }
        value(env, STORAGE).ifPresent(dir -> b.storage(Path.of(dir)));
        if (launch.registry() != null) {
            b.configure("io.polylink.registry", Map.of("directory", launch.registry().toString()));
        }
        value(env, SHM_DIRECTORY).ifPresent(dir -> b.configure("io.polylink.method.shm", Map.of("directory", dir)));
        value(env, TCP_ADDRESS).ifPresent(a -> b.configure("io.polylink.method.tcp", Map.of("bindAddress", a)));
        return b.build();
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

    private static Optional<String> value(Map<String, String> env, String name) {
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

    /**
     * Ends the JVM with {@code status} from a thread of its own. An application thread then waits
     * here for the end, rather than run on and report, as an exception, the error that ended the
     * job; a runtime thread ({@code polylink-*}) returns, since the exit waits for it.
     */
    @Override
    public void exit(int status) {
        Thread exit = new Thread(() -> System.exit(status), "polylink-mpi-exit");
        exit.start();
        if (!Thread.currentThread().getName().startsWith("polylink-")) {
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
