package io.polylink.bench.internal.mpi;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Open MPI's C implementation, the baseline: {@code osu.c} compiled with {@code mpicc} into a
 * directory of its own, and run by {@code mpirun} as some ranks with the byte transfer layer of the
 * implementation named: {@code openmpi:vader} (shared memory, {@code --mca btl self,vader}) or
 * {@code openmpi:tcp} ({@code --mca btl self,tcp} on the loopback interface). Both with the ob1
 * point-to-point layer, so that the btl named is the one used, and unbound, as the Java ranks are.
 */
final class OpenMpi implements AutoCloseable {

    static final String VADER = "openmpi:vader";
    static final String TCP = "openmpi:tcp";

    /** What to install when {@code mpicc} or {@code mpirun} is missing. */
    static final String INSTALL = "apt-get install -y openmpi-bin libopenmpi-dev";

    private final Path mpirun;
    private final Path directory;
    private final Path program;
    private final String version;

    private OpenMpi(Path mpirun, Path directory, Path program, String version) {
        this.mpirun = mpirun;
        this.directory = directory;
        this.program = program;
        this.version = version;
    }

    /**
     * Finds {@code mpicc} and {@code mpirun} on the PATH and compiles {@code osu.c}.
     *
     * @return the baseline, or empty if either command is missing
     * @throws IOException if the program does not compile
     */
    static Optional<OpenMpi> find() throws IOException, InterruptedException {
        Optional<Path> mpicc = onPath("mpicc");
        Optional<Path> mpirun = onPath("mpirun");
        if (mpicc.isEmpty() || mpirun.isEmpty()) {
            return Optional.empty();
        }
        // not /dev/shm: it may be mounted noexec
        Path directory = Files.createTempDirectory("polylink-bench-openmpi-");
        try {
            Path source = directory.resolve("osu.c");
            try (InputStream in = OpenMpi.class.getResourceAsStream("osu.c")) {
                Files.copy(in, source);
            }
            Path program = directory.resolve("osu");
            String out = run(List.of(mpicc.get().toString(), "-O2", "-o", program.toString(), source.toString()));
            if (!Files.isExecutable(program)) {
                throw new IOException("mpicc did not compile osu.c:\n" + out);
            }
            String version = run(List.of(mpirun.get().toString(), "--version")).lines().findFirst().orElse("mpirun");
            return Optional.of(new OpenMpi(mpirun.get(), directory, program, version));
        } catch (IOException | RuntimeException e) {
            delete(directory);
            throw e;
        }
    }

    /** @return e.g. {@code mpirun (Open MPI) 4.1.4} */
    String version() {
        return version;
    }

    /** @return the results of one run of {@code impl} as {@code ranks} ranks with {@code args} (see {@code osu.c}) */
    List<MpiResult> run(String impl, int ranks, List<String> args, Duration limit) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(mpirun.toString(), "--allow-run-as-root", "--oversubscribe",
            "-np", Integer.toString(ranks), "--bind-to", "none", "--mca", "pml", "ob1"));
        command.addAll(impl.equals(VADER) ? List.of("--mca", "btl", "self,vader")
            : List.of("--mca", "btl", "self,tcp", "--mca", "btl_tcp_if_include", "lo"));
        command.add(program.toString());
        command.addAll(args);
        try (Session session = new Session(impl)) {
            session.start(command, Map.of());
            return session.await(limit);
        }
    }

    @Override
    public void close() {
        delete(directory);
    }

    private static Optional<Path> onPath(String command) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        return Stream.of(path.split(java.io.File.pathSeparator)).map(dir -> Path.of(dir, command))
            .filter(Files::isExecutable).findFirst();
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not end within 60 s");
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    private static void delete(Path directory) {
        try (Stream<Path> all = Files.walk(directory)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("bench mpi: cannot remove " + directory + ": " + e.getMessage());
        }
    }
}
