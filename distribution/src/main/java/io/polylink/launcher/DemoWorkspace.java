package io.polylink.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

/**
 * What one demo run makes and removes again: a private copy of conf/ (so the demo neither changes
 * nor depends on the user's settings), a naming registry folder and a shm segment directory of its
 * own, so removing them cannot touch another run's or another node's files.
 */
final class DemoWorkspace implements AutoCloseable {

    private final Path root;
    private final Path conf;
    private final Path shm;

    private DemoWorkspace(Path root, Path conf, Path shm) {
        this.root = root;
        this.conf = conf;
        this.shm = shm;
    }

    private static final String PREFIX = "polylink-demo-";

    static DemoWorkspace create(Home home) throws IOException {
        long pid = ProcessHandle.current().pid();
        Path devShm = Path.of("/dev/shm");
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        removeStale(devShm);
        removeStale(tmp);
        Path root = Files.createTempDirectory(PREFIX + pid + "-");
        Path conf = Files.createDirectories(root.resolve("conf"));
        try (Stream<Path> files = Files.list(home.conf())) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Files.copy(f, conf.resolve(f.getFileName()));
            }
        }
        // In memory where the machine has /dev/shm, as a user's node would be; named for this run.
        Path shm = Files.isDirectory(devShm) && Files.isWritable(devShm)
            ? devShm.resolve(PREFIX + pid)
            : root.resolve("shm");
        DemoWorkspace workspace = new DemoWorkspace(root, conf, shm);
        // A later line wins, in a .cfg as in framework.properties.
        workspace.append("io.polylink.method.shm.cfg", "directory=" + shm);
        workspace.append("io.polylink.method.tcp.cfg", "bindAddress=127.0.0.1");
        workspace.append("io.polylink.registry.cfg", "directory=" + root.resolve("registry"));
        // A shell without --noshutdown stops the node when its input ends: when the demo ends,
        // however it ends, its nodes follow.
        workspace.append("framework.properties", "gosh.args=");
        return workspace;
    }

    /**
     * Removes what a demo killed with SIGKILL left: folders named {@code polylink-demo-<pid>[-…]}
     * whose process is gone. Its nodes stop by themselves when their input closes.
     */
    private static void removeStale(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : entries.filter(p -> p.getFileName().toString().startsWith(PREFIX)).toList()) {
                String rest = p.getFileName().toString().substring(PREFIX.length());
                int dash = rest.indexOf('-');
                try {
                    long owner = Long.parseLong(dash < 0 ? rest : rest.substring(0, dash));
                    if (ProcessHandle.of(owner).isEmpty()) {
                        Node.delete(p);
                    }
                } catch (NumberFormatException notOurs) {
                    // not a name this class makes: leave it
                }
            }
        }
    }

    private void append(String file, String line) throws IOException {
        Files.writeString(conf.resolve(file), "\n# set by polylink demo\n" + line + "\n", StandardOpenOption.APPEND,
            StandardOpenOption.CREATE);
    }

    Path conf() {
        return conf;
    }

    Path shm() {
        return shm;
    }

    /** Removes every file of the run; call after the nodes have ended. */
    @Override
    public void close() {
        Node.delete(shm);
        Node.delete(root);
    }
}
