package io.polylink.mpi.job;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One rank's classes, so that ranks run as threads of one JVM each have their own {@code mpi}
 * statics, as ranks in processes of their own do: the {@code mpi} package, the engine and the
 * test programs are defined again here from the parent's class files; everything else (JUnit,
 * Polylink's API, core and methods, this harness) comes from the parent; so do the programs in
 * a directory of compiled classes the job names. Also carries the rank's
 * launch environment and what its host did, for {@link Job}.
 */
public final class RankClassLoader extends ClassLoader {

    static {
        // Class loading locks per class, not this loader: closeLeftovers waits for the rank's Polylink threads, which may
        // be loading one of the rank's classes as it closes.
        registerAsParallelCapable();
    }

    private static final List<String> OWN = List.of("mpi.", "io.polylink.mpi.internal.", "io.polylink.mpi.plogp.",
        "io.polylink.mpi.programs.");

    private final int rank;
    private final Map<String, String> environment;
    private final Path programs;
    private final Object lock = new Object();
    private final List<AutoCloseable> opened = new ArrayList<>();
    private volatile Integer exitStatus;

    /**
     * @param programs a directory of compiled programs, each class of which is this rank's own;
     *     {@code null} for none
     */
    RankClassLoader(ClassLoader parent, int rank, Map<String, String> environment, Path programs) {
        super("rank-" + rank, parent);
        this.rank = rank;
        this.environment = Map.copyOf(environment);
        this.programs = programs;
    }

    /** @return the variables a launcher would have set for this rank */
    public Map<String, String> environment() {
        return environment;
    }

    /** @return this rank */
    public int rank() {
        return rank;
    }

    /** Notes a context the rank's host opened, so the job can close it if the rank does not. */
    public void opened(AutoCloseable context) {
        synchronized (lock) {
            opened.add(context);
        }
    }

    /** Notes that the rank's host closed {@code context}. */
    public void closed(AutoCloseable context) {
        synchronized (lock) {
            opened.remove(context);
        }
    }

    /** Notes the status the rank's host was asked to exit with; the first one counts. */
    public void exited(int status) {
        synchronized (lock) {
            if (exitStatus == null) {
                exitStatus = status;
            }
        }
    }

    /** @return the exit status the rank asked for, or {@code null} */
    public Integer exitStatus() {
        return exitStatus;
    }

    /**
     * Closes every context the rank left open, holding no lock its Polylink threads may want meanwhile.
     *
     * @return how many there were
     */
    int closeLeftovers() {
        List<AutoCloseable> left;
        synchronized (lock) {
            left = List.copyOf(opened);
            opened.clear();
        }
        for (AutoCloseable c : left) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException("rank " + rank + "'s context did not close", e);
            }
        }
        return left.size();
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!OWN.stream().anyMatch(name::startsWith) && !compiled(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                byte[] bytes = bytesOf(name);
                c = defineClass(name, bytes, 0, bytes.length);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    private boolean compiled(String name) {
        return programs != null && Files.isRegularFile(programs.resolve(name.replace('.', '/') + ".class"));
    }

    private byte[] bytesOf(String name) throws ClassNotFoundException {
        String file = name.replace('.', '/') + ".class";
        try (InputStream in = compiled(name) ? Files.newInputStream(programs.resolve(file))
                : getParent().getResourceAsStream(file)) {
            if (in == null) {
                throw new ClassNotFoundException(name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
