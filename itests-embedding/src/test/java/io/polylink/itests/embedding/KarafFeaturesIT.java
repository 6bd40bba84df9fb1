package io.polylink.itests.embedding;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.polylink.Polylink;
import io.polylink.Startpoint;
import io.polylink.testkit.DocumentBlocks;
import io.polylink.testkit.EchoStreams;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache Karaf 4.4, unpacked from its distribution on Maven Central, given the features repository
 * and the features that the docs' commands name (as boot features, which Karaf installs as those
 * commands would) and the edit the docs ask for, runs a context that links to this JVM's by tcp,
 * shm, lz4/tcp and aead/tcp.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KarafFeaturesIT {

    @TempDir
    Path temp;

    @Test
    void theDocumentedFeaturesRunAContextInKarafThatLinksByEveryMethodAndTransform() throws Exception {
        assumeTrue(hasTar(), () -> {
            System.out.println("KarafFeaturesIT skipped: no 'tar' on this machine to unpack Karaf's distribution with");
            return "no tar";
        });
        KarafHome karaf = KarafHome.unpack(Path.of(System.getProperty("karaf.distribution")), temp.resolve("karaf"));
        List<String> commands = DocumentBlocks.block(DocumentBlocks.doc("embedding.md"), "karaf-commands");
        String url = arguments(commands, "feature:repo-add").get(0);
        List<String> features = arguments(commands, "feature:install");

        String[] mvn = url.substring("mvn:".length()).split("/");
        Coordinates featuresArtifact = new Coordinates(mvn[0], mvn[1], mvn[2]);
        karaf.repository(featuresArtifact.file(), featuresArtifact, temp.resolve("m2"));
        KarafHome.append(karaf.etc("org.apache.karaf.features.cfg"), "featuresRepositories", url);
        KarafHome.append(karaf.etc("org.apache.karaf.features.cfg"), "featuresBoot", String.join(", ", features));
        // the docs' edit, for Conscrypt
        KarafHome.append(karaf.etc("config.properties"), "org.osgi.framework.system.packages.extra", "sun.security.x509");
        KarafHome.set(karaf.etc("org.apache.karaf.shell.cfg"), "sshPort", Integer.toString(freePort()));
        KarafHome.set(karaf.etc("org.apache.karaf.management.cfg"), "rmiRegistryPort", Integer.toString(freePort()));
        KarafHome.set(karaf.etc("org.apache.karaf.management.cfg"), "rmiServerPort", Integer.toString(freePort()));

        Path registry = temp.resolve("registry");
        Path shm = temp.resolve("shm");
        Files.writeString(karaf.etc("io.polylink.core.cfg"), "name = karaf\n");
        Files.writeString(karaf.etc("io.polylink.registry.cfg"), "directory = " + registry + "\n");
        Files.writeString(karaf.etc("io.polylink.method.tcp.cfg"), "bindAddress = 127.0.0.1\n");
        Files.writeString(karaf.etc("io.polylink.method.shm.cfg"), "directory = " + shm + "\n");
        Files.writeString(karaf.etc("io.polylink.method.crypto.cfg"), "psk = " + Links.PSK + "\n");

        Path logs = Files.createDirectories(Path.of(System.getProperty("polylink.logs", temp.toString())));
        long started = System.nanoTime();
        try (KarafProcess process = KarafProcess.start(karaf, logs.resolve("karaf-console.log"));
             Polylink here = Polylink.start(Links.settings(temp, registry, shm));
             EchoStreams streams = new EchoStreams(here.context(), 2, 16, 128)) {
            Links.Diagnosis diagnosis = () -> process.describe(karaf);
            Startpoint atKaraf = Links.lookup(here.context(), "karaf", Duration.ofSeconds(150), diagnosis);
            System.out.println("Karaf's context up after " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)
                + " ms");
            for (String stack : List.of("tcp", "shm", "lz4/tcp", "aead/tcp")) {
                Links.assertEchoes(streams, atKaraf, stack, diagnosis);
            }
        }
    }

    /** @return the arguments of the docs' line starting with {@code command} */
    private static List<String> arguments(List<String> commands, String command) {
        for (String line : commands) {
            if (line.startsWith(command + " ")) {
                return Arrays.asList(line.substring(command.length()).strip().split("\\s+"));
            }
        }
        throw new AssertionError("the docs' Karaf commands have no " + command + ": " + commands);
    }

    private static boolean hasTar() {
        try {
            return new ProcessBuilder("tar", "--version").redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** A port free now; Karaf binds it a few seconds later, so another process could take it first, rarely. */
    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
