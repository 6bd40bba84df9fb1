package io.polylink.core.internal.naming;

import io.polylink.spi.NameRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * The default naming registry: one file per name in a directory, written by atomic rename so a
 * reader never sees half a startpoint. Works for processes on one host, or on many hosts that
 * share the directory.
 *
 * <p>A new directory in the configuration is taken in place, moving the names published through
 * this registry along: a context holding this service keeps it across the change, so its names
 * must follow.
 *
 * <p>Whoever can write the directory can put anything under a name, so a lookup reads only a
 * regular file, never through a link, and at most {@value #MAX_BYTES} bytes of it: a FIFO there
 * would block the lookup, a huge file would be read whole.
 */
@Component(configurationPid = "io.polylink.registry", property = "service.ranking:Integer=-100")
@Designate(ocd = DirectoryNameRegistry.Config.class)
public final class DirectoryNameRegistry implements NameRegistry {

    /** Configuration of the directory registry, PID {@code io.polylink.registry}. */
    @ObjectClassDefinition(name = "Polylink directory registry")
    @interface Config {
        @AttributeDefinition(description = "Which registry the context uses: directory (this one), or another "
            + "registry bundle's type, such as zookeeper")
        String type() default DIRECTORY;

        @AttributeDefinition(description = "Directory of published names; empty: the system property "
            + "polylink.registry, else <java.io.tmpdir>/polylink-registry-<user.name>")
        String directory() default "";
    }

    static final String DIRECTORY = "directory";

    private static final String SUFFIX = ".startpoint";
    /** Bytes a published startpoint may have: its text is a few hundred. */
    static final int MAX_BYTES = 64 << 10;

    private volatile Path directory;
    /** The registry type the configuration names, when it is not this one; {@code null} when it is. */
    private volatile String otherType;
    private final Set<String> published = ConcurrentHashMap.newKeySet();

    @Activate
    public DirectoryNameRegistry(Config config) {
        this(directoryOf(config));
        otherType = otherType(config);
    }

    /** @param directory where the names live; created on first publish */
    public DirectoryNameRegistry(Path directory) {
        this.directory = directory;
    }

    private static String otherType(Config config) {
        return config.type().isBlank() || config.type().equals(DIRECTORY) ? null : config.type();
    }

    /**
     * A registry of the configured type ranks above this one while it runs; while it does not,
     * this one answers that it is missing rather than serve names no one else sees.
     */
    private void serving() throws IOException {
        String other = otherType;
        if (other != null) {
            throw new IOException("io.polylink.registry says type=" + other + ", and no registry of that type runs: "
                + "start its bundle (polylink-registry-" + other + ") or set type=directory");
        }
    }

    private static Path directoryOf(Config config) {
        return Path.of(config.directory().isBlank() ? defaultDirectory() : config.directory());
    }

    @Modified
    synchronized void modified(Config config) throws IOException {
        otherType = otherType(config);
        Path next = directoryOf(config);
        Path previous = directory;
        if (next.equals(previous)) {
            return;
        }
        directory = next;
        for (String name : published) {
            Optional<String> text = read(previous.resolve(name + SUFFIX));
            if (text.isPresent()) {
                publish(name, text.get());
                Files.deleteIfExists(previous.resolve(name + SUFFIX));
            }
        }
    }

    static String defaultDirectory() {
        String configured = System.getProperty("polylink.registry");
        return configured != null && !configured.isBlank() ? configured
            : Path.of(System.getProperty("java.io.tmpdir"), "polylink-registry-" + System.getProperty("user.name"))
                .toString();
    }

    @Override
    public synchronized void publish(String name, String startpoint) throws IOException {
        serving();
        Path directory = this.directory;
        Files.createDirectories(directory);
        Path temp = Files.createTempFile(directory, "." + name, ".tmp");
        try {
            Files.writeString(temp, startpoint + "\n", StandardCharsets.US_ASCII);
            try {
                Files.move(temp, file(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file(name), StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
        published.add(name);
    }

    @Override
    public Optional<String> lookup(String name) throws IOException {
        serving();
        return read(file(name));
    }

    /**
     * Checks what the name is before opening it, since opening a FIFO waits for a writer.
     *
     * @throws IOException naming the file if it is not a regular file or is larger than a
     *     startpoint can be
     */
    private static Optional<String> read(Path file) throws IOException {
        BasicFileAttributes found;
        try {
            found = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        if (!found.isRegularFile()) {
            throw new IOException(file + " is " + (found.isSymbolicLink() ? "a symbolic link"
                : found.isDirectory() ? "a directory" : "a FIFO, socket or device") + ", not a published "
                + "startpoint: the registry reads only the regular files it writes; remove it");
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        if (bytes.length > MAX_BYTES) {
            throw new IOException(file + " is larger than " + MAX_BYTES + " bytes, which no published startpoint "
                + "is; remove it");
        }
        return Optional.of(new String(bytes, StandardCharsets.US_ASCII).strip());
    }

    @Override
    public synchronized void unpublish(String name) throws IOException {
        serving();
        published.remove(name);
        Files.deleteIfExists(file(name));
    }

    private Path file(String name) {
        return directory.resolve(name + SUFFIX);
    }

    @Override
    public String toString() {
        return "directory registry " + directory;
    }
}
