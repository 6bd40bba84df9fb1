package io.polylink.itests.embedding;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.polylink.Polylink;
import io.polylink.Startpoint;
import io.polylink.testkit.DocumentBlocks;
import io.polylink.testkit.Await;
import io.polylink.testkit.EchoStreams;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.Constants;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;

/**
 * A bare Felix framework started from exactly the bundles and framework properties that
 * docs/embedding.md lists for one's own Felix, configured by .cfg files as the docs say, runs a
 * context that links to this JVM's by tcp, shm, lz4/tcp and aead/tcp.
 *
 * <p>Each stack is used once that framework has registered its method and transforms: the
 * aead/tcp entry is the test's own, not one the framework's published table waits for, so a
 * transform that came up late (or never) showed only as refused handshakes. A failure names the
 * methods and transforms on each side, the framework's bundles and the state of each of its
 * Polylink components.
 */
class DocumentedFelixIT {

    /** The docs' stand-in for the folder of .cfg files. */
    private static final String CONF_PLACEHOLDER = "/path/to/conf";

    @TempDir
    Path temp;

    @Test
    void aBareFelixFromTheDocumentedListRunsAContextThatLinksByEveryMethodAndTransform() throws Exception {
        Path doc = DocumentBlocks.doc("embedding.md");
        List<Path> jars = new ArrayList<>();
        for (String line : DocumentBlocks.block(doc, "felix-bundles")) {
            if (!line.isBlank()) {
                jars.add(Coordinates.parse(line).file());
            }
        }
        Map<String, String> properties = properties(DocumentBlocks.block(doc, "felix-properties"));
        assertEquals(CONF_PLACEHOLDER, properties.get("felix.fileinstall.dir"), "the docs' conf folder");
        // Written back, a .cfg file can be read empty by FileInstall's own watcher, and its
        // configuration then stays empty: the docs must turn that off.
        assertEquals("false", properties.get("felix.fileinstall.enableConfigSave"), "the docs' config save");
        Path registry = temp.resolve("registry");
        Path shm = temp.resolve("shm");
        Path conf = Files.createDirectories(temp.resolve("conf"));
        Files.writeString(conf.resolve("io.polylink.registry.cfg"), "directory=" + registry + "\n");
        Files.writeString(conf.resolve("io.polylink.method.tcp.cfg"), "bindAddress=127.0.0.1\n");
        Files.writeString(conf.resolve("io.polylink.method.shm.cfg"), "directory=" + shm + "\n");
        Files.writeString(conf.resolve("io.polylink.method.crypto.cfg"), "psk=" + Links.PSK + "\n");
        properties.put("felix.fileinstall.dir", conf.toString());
        properties.put(Constants.FRAMEWORK_STORAGE, temp.resolve("felix-cache").toString());
        properties.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);

        Framework felix = ServiceLoader.load(FrameworkFactory.class).findFirst()
            .orElseThrow(() -> new AssertionError("no FrameworkFactory on the class path")).newFramework(properties);
        felix.init();
        try {
            List<Bundle> bundles = new ArrayList<>();
            for (Path jar : jars) {
                bundles.add(felix.getBundleContext().installBundle(jar.toUri().toString()));
            }
            felix.start();
            for (Bundle b : bundles) {
                b.start();
            }
            FrameworkParts felixParts = new FrameworkParts(felix);
            try (Polylink here = Polylink.start(Links.settings(temp, registry, shm));
                 EchoStreams streams = new EchoStreams(here.context(), 2, 16, 128)) {
                Links.Diagnosis diagnosis = () -> "here: methods " + here.context().methods() + ", transforms "
                    + here.context().transforms() + "\nthe registry directory " + registry + ": "
                    + published(registry) + "\nthe documented Felix framework: " + felixParts.describe();
                Await.until(() -> felixParts.methods().containsAll(List.of("tcp", "shm"))
                    && felixParts.transforms().containsAll(List.of("lz4", "aead")), Duration.ofSeconds(60),
                    () -> "the documented Felix framework did not register tcp, shm, lz4 and aead within 60 s\n"
                        + diagnosis.describe());
                Startpoint atFelix = Links.lookup(here.context(), properties.get("polylink.name"),
                    Duration.ofSeconds(60), diagnosis);
                for (String stack : List.of("tcp", "shm", "lz4/tcp", "aead/tcp")) {
                    Links.assertEchoes(streams, atFelix, stack, diagnosis);
                }
            }
        } finally {
            felix.stop();
            assertEquals(FrameworkEvent.STOPPED, felix.waitForStop(30_000).getType(), "Felix stopped within 30 s");
        }
    }

    /** @return the names of the files in the registry's directory, each with its text */
    private static String published(Path registry) {
        try (Stream<Path> files = Files.list(registry)) {
            return files.sorted().map(f -> {
                try {
                    return f.getFileName() + " = " + Files.readString(f).strip();
                } catch (IOException e) {
                    return f.getFileName() + " (unreadable: " + e + ")";
                }
            }).toList().toString();
        } catch (IOException e) {
            return "(cannot list it: " + e + ")";
        }
    }

    private static Map<String, String> properties(List<String> lines) throws Exception {
        Properties p = new Properties();
        p.load(new StringReader(String.join("\n", lines)));
        Map<String, String> out = new HashMap<>();
        p.stringPropertyNames().forEach(k -> out.put(k, p.getProperty(k)));
        return out;
    }
}
