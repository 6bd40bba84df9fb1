package io.polylink.itests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Hashtable;
import java.util.stream.Stream;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;

/**
 * A temporary directory the test framework's real FileInstall watches, set up as the
 * distribution's deploy/ is (a factory configuration of {@code org.apache.felix.fileinstall}),
 * with files dropped the documented way: written under a name FileInstall ignores, then renamed.
 */
final class DeployDirectory implements AutoCloseable {

    private final Path directory;
    private final Configuration watcher;

    DeployDirectory(ConfigurationAdmin configurations) throws IOException {
        directory = Files.createTempDirectory("polylink-deploy-");
        watcher = configurations.createFactoryConfiguration("org.apache.felix.fileinstall", "?");
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put("felix.fileinstall.dir", directory.toString());
        properties.put("felix.fileinstall.poll", "100");
        properties.put("felix.fileinstall.noInitialDelay", "true");
        // what the distribution sets too: names starting with '.' are in the making
        properties.put("felix.fileinstall.filter", "[^.].*");
        watcher.update(properties);
    }

    Path path() {
        return directory;
    }

    /** Copies {@code source} in as {@code name}: first as .name.part, then one atomic rename. */
    Path drop(Path source, String name) throws IOException {
        Path part = directory.resolve("." + name + ".part");
        Files.copy(source, part, StandardCopyOption.REPLACE_EXISTING);
        return Files.move(part, directory.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    }

    /** Writes {@code text} in as {@code name}, the same way. */
    Path write(String name, String text) throws IOException {
        Path part = directory.resolve("." + name + ".part");
        Files.writeString(part, text);
        return Files.move(part, directory.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    }

    void remove(String name) throws IOException {
        Files.delete(directory.resolve(name));
    }

    @Override
    public void close() throws IOException {
        watcher.delete();
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
