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

    private static final String PREFIX = "polylink-demo-";

    private final Path root;
    private final Path shm;
    private final Path homeConf;

    private DemoWorkspace(Path root, Path shm, Path homeConf) {
        this.root = root;
        this.shm = shm;
        this.homeConf = homeConf;
    }

    static DemoWorkspace create(Home home) throws IOException {
        long pid = ProcessHandle.current().pid();
        Path devShm = Path.of("/dev/shm");
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        removeStale(devShm);
        removeStale(tmp);
        Path root = Files.createTempDirectory(PREFIX + pid + "-");
        // In memory where the machine has /dev/shm, as a user's node would be; named for this run.
        Path shm = Files.isDirectory(devShm) && Files.isWritable(devShm)
            ? devShm.resolve(PREFIX + pid)
            : root.resolve("shm");
        return new DemoWorkspace(root, shm, home.conf());
    }

    /**
     * A copy of the installation's conf/ for one node, which publishes its context in the demo's
     * registry as {@code node}.
     */
    Path conf(String node) throws IOException {
        Path conf = Files.createDirectories(root.resolve("conf-" + node));
        try (Stream<Path> files = Files.list(homeConf)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Files.copy(f, conf.resolve(f.getFileName()));
            }
        }
        // A later line wins, in a .cfg as in framework.properties and logging.properties.
        append(conf, "io.polylink.method.shm.cfg", "directory=" + shm);
        append(conf, "io.polylink.method.tcp.cfg", "bindAddress=127.0.0.1");
        append(conf, "io.polylink.registry.cfg", "directory=" + root.resolve("registry"));
        append(conf, "io.polylink.core.cfg", "name=" + node);
        // The demo uninstalls shm and installs it again itself: automatic install would bring it back first.
        append(conf, "io.polylink.core.cfg", "install.enabled=false");
        // Records on the console, where the demo shows warnings and its node logs keep the rest.
        append(conf, NodeLog.FILE, "handlers=java.util.logging.ConsoleHandler\n"
            + "java.util.logging.ConsoleHandler.level=INFO\n"
            + "java.util.logging.SimpleFormatter.format=" + LogLines.FORMAT);
        // A shell without --noshutdown stops the node when its input ends: when the demo ends,
        // however it ends, its nodes follow.
        append(conf, "framework.properties", "gosh.args=");
        return conf;
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
                        Folders.delete(p);
                    }
                } catch (NumberFormatException notOurs) {
                    // not a name this class makes: leave it
                }
            }
        }
    }

    private static void append(Path conf, String file, String line) throws IOException {
        Files.writeString(conf.resolve(file), "\n# set by polylink demo\n" + line + "\n", StandardOpenOption.APPEND,
            StandardOpenOption.CREATE);
    }

    Path shm() {
        return shm;
    }

    /** Removes every file of the run; call after the nodes have ended. */
    @Override
    public void close() {
        Folders.delete(shm);
        Folders.delete(root);
    }
}
